// `container-compose`: the compose project `appName` on the engine, run by the compose tool (the
// engine's `docker compose` plugin, else the standalone `docker-compose`, with the same arguments).
// Without either the deployment fails naming the tool. Stop and delete find the project by its label (project.ts).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Compose } from '@berth/shared/domain/compose/compose';
import { composeProjectName } from '@berth/shared/domain/compose/project-name';
import { DEFAULT_UP, givenArguments, wholeCommandLineFault } from '@berth/shared/domain/compose/command';
import { envMap } from '@berth/shared/domain/compose/values';
import { unusedByTheComposeTool } from '@berth/shared/domain/compose/tool-options';
import { DeploymentFailure } from '../deployer/env.ts';
import { isInstalled, runTool } from '../deployer/process.ts';
import { engineEnv } from '../deployer/engine-host.ts';
import type { DeploymentResult } from '../deployer/work.ts';
import type { ComposeDeps } from './deps.ts';
import { besideTheFile, type FetchedCompose } from './source.ts';
import type { ComposeWork } from './work.ts';
import { registryLogins } from './registries.ts';
import { claimProject } from './project.ts';
import { projectImages, removeReplacedImages } from './replaced-images.ts';

const NO_SIGNAL = new AbortController().signal;
const quiet = () => {};

/** The tool's command words: the plugin when the engine's CLI has it, else the standalone tool. */
export async function composeTool(installed: (command: string) => Promise<boolean> = isInstalled): Promise<string[]> {
  if (await installed('docker')) {
    const plugin = await runTool('docker', ['compose', 'version'], { signal: NO_SIGNAL, log: quiet, quiet: true }).then(() => true, () => false);
    if (plugin) return ['docker', 'compose'];
  }
  if (await installed('docker-compose')) return ['docker-compose'];
  throw new DeploymentFailure('container-compose needs the compose tool (docker compose or docker-compose), which is not installed on this host');
}

async function compose(deps: ComposeDeps, record: Compose, file: string, args: string[], job: { signal: AbortSignal; log: (line: string) => void }) {
  const [command, ...prefix] = await composeTool();
  // Images in the registries Berth knows are pulled with their logins.
  const logins = await registryLogins(deps);
  // The service's env is what the file's ${VARIABLES} are interpolated from, as a shell's would be.
  const env = { ...envMap(record.env), ...engineEnv(deps.dockerHost), ...(logins && { DOCKER_CONFIG: logins.dir }) };
  try {
    // The name as the tool would normalise it: what its labels say, and what stop and delete look for.
    return await runTool(command!, [...prefix, '-p', composeProjectName(record.appName), '-f', file, ...args], {
      cwd: dirname(file), env, signal: job.signal, log: job.log, what: [command, ...prefix, args[0]].join(' '),
    });
  } finally {
    await logins?.remove();
  }
}

/**
 * The variables the compose tool fills the file's ${VARIABLES} from: the `.env` of the project's
 * folder (the file's), then the service's env, which wins, as the tool's own environment does. A
 * `.env` that is not inside the repository counts for nothing here.
 */
export function interpolationEnv(fetched: FetchedCompose, compose: Pick<Compose, 'env'>): string {
  let dotenv = '';
  try {
    const found = besideTheFile(fetched, '.env');
    if (found) dotenv = readFileSync(found, 'utf8');
  } catch {
    // Leads out of the repository, or unreadable: the tool's business, not the claims'.
  }
  return `${dotenv}\n${compose.env ?? ''}`;
}

const UP = [...DEFAULT_UP];

/**
 * Flags that let `up` end on its own: detached, waiting for health, or ending with a container
 * (`-d` may be combined with other short flags, as in `-dV`).
 */
const UP_ENDS = /^(-[a-zA-Z]*d[a-zA-Z]*|--detach(=.*)?|--wait|--abort-on-container-exit|--exit-code-from(=.*)?)$/;

/**
 * The tool's arguments for a deploy: the service's `command` (the words after `-p <appName> -f
 * <file>`, which Berth always passes: the project's label is how stop and delete find it; the line
 * getDefaultCommand shows may be given whole), else `UP`. An `up` in the foreground would never
 * end, and its deployment with it: it is run detached.
 */
export function deployArguments(command: string, compose: Pick<Compose, 'appName' | 'composePath'>): string[] {
  const given = givenArguments(command, compose);
  if (given.length === 0) return UP;
  // Refused on save; one saved before, or whose appName or composePath changed since, fails here.
  const fault = wholeCommandLineFault(command, compose);
  if (fault) throw new DeploymentFailure(`The service's command ${fault}`);
  if (given[0] === 'up' && !given.some((word) => UP_ENDS.test(word))) return ['up', '-d', ...given.slice(1)];
  return given;
}

export async function composeUp(deps: ComposeDeps, work: ComposeWork, fetched: FetchedCompose): Promise<DeploymentResult> {
  const args = deployArguments(work.compose.command, work.compose);
  if (args !== UP) work.log(`Running the compose tool with the service's command: ${args.join(' ')}`);
  const ignored = unusedByTheComposeTool(fetched.text);
  if (ignored.length > 0) work.log(`The compose tool does not use, so ignores: ${ignored.join(', ')} (a stack's settings: deploy it as a stack for them)`);
  await claimProject(deps, work.compose);
  const before = await projectImages(deps, work.compose);
  try {
    await compose(deps, work.compose, fetched.file, args, work);
  } finally {
    await removeReplacedImages(deps, before, work.log);
  }
  return { image: `compose project ${work.compose.appName}`, revision: fetched.revision };
}
