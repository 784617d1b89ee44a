// Builds an application's image from its fetched source: the engine's own builder for a
// containerfile, or the external CLI of a pack build type when it is installed on this host.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { Application, BuildType } from '@berth/shared/domain/application/record';
import type { ContainerEngine } from '@berth/shared/ports/container-engine';
import { DeploymentFailure } from './env.ts';
import { isInstalled, runTool } from './process.ts';

export interface BuildJob {
  /** The fetched source's root folder. */
  readonly sourceDir: string;
  /** Folder of the build inside the source. */
  readonly buildPath: string | null;
  readonly tag: string;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

/** The CLI each pack build type runs, and its arguments. */
const PACKS: Record<Exclude<BuildType, 'containerfile'>, { tool: string; args: (job: BuildJob, dir: string) => string[] }> = {
  alpha_buildpacks: { tool: 'pack', args: (job, dir) => ['build', job.tag, '--path', dir, '--builder', 'heroku/builder:24'] },
  beta_buildpacks: { tool: 'pack', args: (job, dir) => ['build', job.tag, '--path', dir, '--builder', 'paketobuildpacks/builder-jammy-full'] },
  gamma_packs: { tool: 'nixpacks', args: (job, dir) => ['build', dir, '--name', job.tag] },
};

/** The build folder inside the source; a path that climbs out of it is refused. */
function contextOf(job: BuildJob): string {
  const relative = normalize(job.buildPath ?? '.').replace(/^\/+/, '');
  if (relative.startsWith('..')) throw new DeploymentFailure(`the build path "${job.buildPath}" leaves the repository`);
  const dir = join(job.sourceDir, relative);
  if (!existsSync(dir)) throw new DeploymentFailure(`the build path "${job.buildPath}" does not exist in the repository`);
  return dir;
}

async function buildContainerfile(engine: ContainerEngine, app: Application, job: BuildJob, dir: string): Promise<void> {
  let containerfile: string;
  if (app.containerfile) {
    // The field's text wins over any file of the repository.
    containerfile = '.berth.containerfile';
    await writeFile(join(dir, containerfile), app.containerfile);
  } else {
    const found = ['Containerfile', 'Dockerfile'].find((name) => existsSync(join(dir, name)));
    if (!found) throw new DeploymentFailure(`no Containerfile or Dockerfile in the build path "${job.buildPath ?? '.'}"`);
    containerfile = found;
  }
  job.log(`Building ${job.tag} from ${containerfile}`);
  await engine.buildImage({ contextDir: dir, containerfile, tag: job.tag, onLine: job.log, signal: job.signal });
}

export async function buildImage(engine: ContainerEngine, app: Application, job: BuildJob): Promise<void> {
  const dir = contextOf(job);
  if (app.buildType === 'containerfile') return buildContainerfile(engine, app, job, dir);
  const pack = PACKS[app.buildType];
  if (!(await isInstalled(pack.tool))) {
    throw new DeploymentFailure(`the build type ${app.buildType} needs the "${pack.tool}" CLI, which is not installed on this host`);
  }
  job.log(`Building ${job.tag} with ${pack.tool}`);
  await runTool(pack.tool, pack.args(job, dir), { signal: job.signal, log: job.log });
}
