// Builds an application's image from its fetched source: the engine's own builder for a
// containerfile, or the external CLI of a pack build type when it is installed on this host.
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Application, BuildType } from '@berth/shared/domain/application/record';
import type { DeployerDeps } from './deps.ts';
import { engineEnv } from './engine-host.ts';
import { DeploymentFailure } from './env.ts';
import { isInstalled, runTool } from './process.ts';
import { foundInRepository, insideRepository } from './repository-path.ts';
import { mustBuildOnImagesItMayRun } from './base-images.ts';
import { appMark } from './service-spec.ts';
import { markLabels } from '@berth/shared/domain/ownership';
import { removeStepImages } from './build-leftovers.ts';
import { isUnavailable } from '@berth/shared/ports/unavailable';

export interface BuildJob {
  /** The fetched source's root folder. */
  readonly sourceDir: string;
  /** Folder of the build inside the source. */
  readonly buildPath: string | null;
  readonly tag: string;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

/**
 * pack fetches the builder, run and buildpack images (a repository's project.toml may name some) from
 * their registries, never the engine's copy, which may be one another application pulled with its login.
 */
const PULL_ALWAYS = ['--pull-policy', 'always'];

/** The CLI each pack build type runs, and its arguments. */
const PACKS: Record<Exclude<BuildType, 'containerfile'>, { tool: string; args: (job: BuildJob, dir: string) => string[] }> = {
  alpha_buildpacks: { tool: 'pack', args: (job, dir) => ['build', job.tag, '--path', dir, '--builder', 'heroku/builder:24', ...PULL_ALWAYS] },
  beta_buildpacks: { tool: 'pack', args: (job, dir) => ['build', job.tag, '--path', dir, '--builder', 'paketobuildpacks/builder-jammy-full', ...PULL_ALWAYS] },
  gamma_packs: { tool: 'nixpacks', args: (job, dir) => ['build', dir, '--name', job.tag] },
};

type BuildDeps = Pick<DeployerDeps, 'engine' | 'secrets' | 'records' | 'settings'>;

async function buildContainerfile(deps: BuildDeps, app: Application, job: BuildJob, dir: string): Promise<void> {
  const { engine } = deps;
  let containerfile: string;
  if (app.containerfile) {
    // The field's text wins over any file of the repository.
    containerfile = '.berth.containerfile';
    // Written as a new file: one of that name in the repository may be a link to a file of this host.
    await rm(join(dir, containerfile), { force: true, recursive: true });
    await writeFile(join(dir, containerfile), app.containerfile, { flag: 'wx' });
  } else {
    const found = ['Containerfile', 'Dockerfile'].find((name) => existsSync(join(dir, name)));
    if (!found) throw new DeploymentFailure(`no Containerfile or Dockerfile in the build path "${job.buildPath ?? '.'}"`);
    containerfile = found;
  }
  // Read where the builder reads it, the links of the repository resolved: one leading out is refused, not read.
  const text = app.containerfile || await readFile(foundInRepository(dir, containerfile, 'containerfile') ?? join(dir, containerfile), 'utf8');
  await mustBuildOnImagesItMayRun(deps, app, text, job);
  job.log(`Building ${job.tag} from ${containerfile}`);
  // Marked as the application's: its removal takes only images that carry the mark.
  const steps: string[] = [];
  try {
    await engine.buildImage({ contextDir: dir, containerfile, tag: job.tag, labels: markLabels(appMark(app)), onLine: job.log,
      onStepImage: (id) => steps.push(id), signal: job.signal });
  } catch (error) {
    // A build the engine stopped answering (an outage) gets no answer to a removal either: its images stay.
    if (!isUnavailable(error)) await removeStepImages(engine, steps, job.log);
    throw error;
  }
}

export async function buildImage(deps: BuildDeps, app: Application, job: BuildJob): Promise<void> {
  const dir = await insideRepository(job.sourceDir, job.buildPath ?? '.', 'build path');
  if (app.buildType === 'containerfile') return buildContainerfile(deps, app, job, dir);
  const pack = PACKS[app.buildType];
  if (!(await isInstalled(pack.tool))) {
    throw new DeploymentFailure(`the build type ${app.buildType} needs the "${pack.tool}" CLI, which is not installed on this host`);
  }
  job.log(`Building ${job.tag} with ${pack.tool}`);
  await runTool(pack.tool, pack.args(job, dir), { env: engineEnv(deps.settings.dockerHost), signal: job.signal, log: job.log });
}
