// The deployer's figures on the real engine, through the API with the reactors in the process,
// each beside the same engine operation done directly:
// - overhead: from the `application.deploy` call to the new task running, minus writing the same
//   spec and waiting for its task directly; median of 10;
// - parallelism: 10 new services deployed at once against one alone (the engine's own figures beside).
// Targets (issue 7): overhead ≤ 300 ms; 10 at once ≤ 1.5 × one.
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, eventually, removeDeployed, uniqueName } from '../support/engine.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }
const ROUNDS = 10;
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const met = (ok: boolean) => (ok ? 'yes' : 'NO');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Resolves once a task of the service's current spec runs (polled every 20 ms). */
async function taskRuns(name: string, forceUpdate: () => Promise<number>): Promise<void> {
  for (;;) {
    const wanted = await forceUpdate().catch(() => -1);
    const tasks = await engine.listTasks(name);
    if (tasks.some((task) => task.forceUpdate === wanted && task.state === 'running' && task.desiredState === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const currentForce = (name: string) => async () => (await engine.inspectService(name))?.spec.TaskTemplate.ForceUpdate ?? 0;

/** Writes the spec (rolling the tasks) and waits for a task of it to run: the bare engine's time. */
async function direct(spec: ServiceSpec): Promise<number> {
  const started = performance.now();
  await engine.upsertService(spec);
  await taskRuns(spec.Name, currentForce(spec.Name));
  return performance.now() - started;
}

async function newApplication(berth: TestBerth, projectId: string) {
  const app = await berth.ok('application.create', { name: 'bench', projectId });
  await berth.ok('application.saveContainerProvider', { applicationId: app.applicationId, containerImage: TEST_IMAGE, username: null, password: null });
  return app as { applicationId: string; appName: string };
}

/** Calls deploy; resolves once the service's new task runs; answers the time; then waits for the deployment to end. */
async function deployed(berth: TestBerth, app: { applicationId: string; appName: string }): Promise<number> {
  const before = (await engine.inspectService(app.appName))?.spec.TaskTemplate.ForceUpdate ?? -1;
  const started = performance.now();
  const { deploymentId } = await berth.ok('application.deploy', { applicationId: app.applicationId });
  await taskRuns(app.appName, async () => {
    const now = await currentForce(app.appName)();
    return now > before || before === -1 ? now : -1;
  });
  const elapsed = performance.now() - started;
  await eventually('the deployment to end', async () =>
    ['done', 'error'].includes((await berth.ok('deployment.one', { deploymentId })).status), 60_000);
  return elapsed;
}

export async function benchDeploy(): Promise<Row[]> {
  console.log(`- deploy: ${ROUNDS} deploys of one image through the API, and directly on the engine`);
  const berth = await startBerthWithReactors({ config: { deployConcurrency: 10 } });
  const { projectId } = await berth.ok('project.create', { name: 'bench' });
  const created: string[] = [];
  try {
    const app = await newApplication(berth, projectId);
    const bare: ServiceSpec = { Name: uniqueName('berth-bench-bare'), TaskTemplate: { ContainerSpec: { Image: TEST_IMAGE } }, Mode: { Replicated: { Replicas: 1 } } };
    created.push(app.appName, bare.Name);
    await deployed(berth, app);
    await direct(bare);
    const overheads: number[] = [];
    for (let round = 0; round < ROUNDS; round++) overheads.push(await deployed(berth, app) - await direct(bare));
    const overhead = median(overheads);

    console.log('- deploy: one new service, then 10 new services at once (through the API, then directly)');
    const apps = await Promise.all(Array.from({ length: 11 }, () => newApplication(berth, projectId)));
    const bares = Array.from({ length: 11 }, () => ({ ...bare, Name: uniqueName('berth-bench-bare') }));
    created.push(...apps.map((each) => each.appName), ...bares.map((each) => each.Name));
    const alone = await deployed(berth, apps[0]!);
    let started = performance.now();
    await Promise.all(apps.slice(1).map((each) => deployed(berth, each)));
    const together = performance.now() - started;
    const bareAlone = await direct(bares[0]!);
    started = performance.now();
    await Promise.all(bares.slice(1).map(direct));
    const bareTogether = performance.now() - started;
    return [
      { figure: 'deploy overhead over the engine, median of 10 (ms)', value: fmt(overhead), target: '≤ 300', met: met(overhead <= 300), ratio: '' },
      { figure: '10 services at once / one alone (ms)', value: `${fmt(together)} / ${fmt(alone)}`, target: '≤ 1.5×', met: met(together <= 1.5 * alone), ratio: `×${fmt(together / alone, 2)}` },
      { figure: '(the engine alone: 10 at once / one, ms)', value: `${fmt(bareTogether)} / ${fmt(bareAlone)}`, target: '', met: '', ratio: `×${fmt(bareTogether / bareAlone, 2)}; Berth's 10 at once ×${fmt(together / bareTogether, 2)} of it` },
    ];
  } finally {
    await berth.stop();
    await removeDeployed(created);
  }
}

if (process.argv[1]?.endsWith('deploy.ts')) console.table(await benchDeploy());
