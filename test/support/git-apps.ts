// Applications built from one local git repository by a Berth whose reactors run on the real engine,
// for the tests of how deployments and actions are ordered. Registers the describe's before/after.
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { Config } from '@berth/shared/runtime/config';
import { startBerthWithReactors, type TestBerth } from './berth.ts';
import { TEST_IMAGE, eventually, removeDeployed } from './engine.ts';
import { GOOD_CONTAINERFILE, gitRepo } from './git-repo.ts';

export function gitApps(config: Partial<Config>) {
  let berth: TestBerth;
  let projectId: string;
  const repo = gitRepo();
  const services: string[] = [];
  const nonce = randomBytes(6).toString('hex');
  before(async () => {
    repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'version 1\n' });
    berth = await startBerthWithReactors({ config });
    ({ projectId } = await berth.ok('project.create', { name: 'git-apps' }));
  });
  after(async () => {
    await removeDeployed(services);
    await berth.stop();
    repo.remove();
  });
  return {
    get berth() { return berth; },
    /** The repository's folder, the git URL of its applications. */
    repoDir: repo.dir,
    /** Unique to the run: in every slow build's lines. */
    nonce,
    /** A build step that takes `seconds`, printing a line each second, never found in the build cache. */
    slowBuild: (seconds: number) =>
      `FROM ${TEST_IMAGE}\nRUN for i in $(seq 1 ${seconds}); do echo "tick $i ${nonce}"; sleep 1; done\nCOPY index.html /www/index.html\n`,
    /** A new application of the repository (publishing `port` to its 8080 when given). */
    async app(name: string, port?: number) {
      const created = await berth.ok('application.create', { name, projectId });
      services.push(created.appName);
      await berth.ok('application.saveGitProdiver', { applicationId: created.applicationId, customGitUrl: repo.dir, customGitBranch: 'main' });
      if (port) await berth.ok('port.create', { applicationId: created.applicationId, publishedPort: port, targetPort: 8080 });
      return { applicationId: created.applicationId as string, appName: created.appName as string };
    },
    deploy: async (applicationId: string) => (await berth.ok('application.deploy', { applicationId })).deploymentId as string,
    /** Resolves once the slow build of the deployment has printed its first line. */
    building: (deploymentId: string) => eventually('the slow build to run',
      async () => /tick 1 /.test((await berth.ok('deployment.logs', { deploymentId })).log), 60_000),
  };
}
