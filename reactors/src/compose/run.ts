// The compose work the deployer runs: fetch the file, record the services it names and claim the
// host ports it publishes, then bring it up as a stack or a compose project; and stop and delete on the engine.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Compose } from '@berth/shared/domain/compose/compose';
import { serviceNames } from '@berth/shared/domain/compose/compose-file';
import { publishedPorts } from '@berth/shared/domain/compose/ports';
import type { ComposeDeps } from './deps.ts';
import { readingTheFile } from './file-failure.ts';
import { composeUp, interpolationEnv } from './container-compose.ts';
import { projectContainers, removeProject, stopProject } from './project.ts';
import { fetchComposeFile } from './source.ts';
import { deployStack, removeStack, stopStack } from './stack.ts';
import { stackServices } from './stack-owner.ts';
import type { DeploymentResult } from '../deployer/work.ts';
import { restoreInterrupted } from '../deployer/rollout.ts';
import type { ComposeActions, ComposeWork, InterruptedComposeWork, RunComposeDeployment } from './work.ts';

type Kind = Compose['composeType'];
const OTHER: Record<Kind, Kind> = { stack: 'container-compose', 'container-compose': 'stack' };

/** Whether the engine holds anything of the service as this kind: a stack's services, a project's containers (its own only). */
async function holds(deps: ComposeDeps, compose: Compose, kind: Kind): Promise<boolean> {
  const found = kind === 'stack' ? (await stackServices(deps, compose)).own : await projectContainers(deps, compose);
  return found.length > 0;
}

const removeKind = (deps: ComposeDeps, compose: Compose, kind: Kind) =>
  (kind === 'stack' ? removeStack(deps, compose) : removeProject(deps, compose));

/**
 * What a deploy as the other composeType left, removed before this kind comes up: the service's
 * type was changed since, and both kinds would run side by side (and claim the same host ports).
 */
async function removeOtherKind(deps: ComposeDeps, work: ComposeWork): Promise<void> {
  const other = OTHER[work.compose.composeType];
  if (!(await holds(deps, work.compose, other))) return;
  work.log(`Removing the ${other === 'stack' ? 'stack' : 'compose project'} a deploy as ${other} left: the service is a ${work.compose.composeType} now`);
  await removeKind(deps, work.compose, other);
}

/**
 * After a failed (or interrupted) first deploy of this kind, what it created (networks, secrets, created containers)
 * removed, as the deployer removes a failed first service. Its named volumes and built images stay,
 * and carry the appName, which therefore no longer changes (app-name.ts).
 */
async function undoFirst(deps: ComposeDeps, work: Pick<ComposeWork, 'compose' | 'log'>): Promise<void> {
  await removeKind(deps, work.compose, work.compose.composeType)
    .then(() => work.log(`Removed what this failed first deploy of ${work.compose.appName} created`))
    .catch((error: unknown) => work.log(`Could not remove what this failed deploy created: ${String(error)}`));
}

export function runComposeWith(deps: ComposeDeps): RunComposeDeployment {
  const run = async (work: ComposeWork): Promise<DeploymentResult> => {
    const fetched = await fetchComposeFile(deps, work.compose, work);
    // The ports as the file will publish them: a compose project's ${VARIABLES} come from its .env too.
    const env = work.compose.composeType === 'stack' ? work.compose.env : interpolationEnv(fetched, work.compose);
    const ports = readingTheFile(() => publishedPorts(fetched.text, env));
    const settle = await work.fileFetched({ services: serviceNames(fetched.text), ports });
    let result: DeploymentResult;
    let first = false;
    try {
      work.signal.throwIfAborted();
      await removeOtherKind(deps, work);
      first = !(await holds(deps, work.compose, work.compose.composeType));
      work.log(`Bringing up ${work.compose.appName} as a ${work.compose.composeType}`);
      if (work.compose.composeType === 'stack' && work.compose.command.trim()) {
        work.log("The service's command is not used: a stack is deployed through the orchestrator's API, not a command");
      }
      result = await (work.compose.composeType === 'stack' ? deployStack(deps, work, fetched) : composeUp(deps, work, fetched));
    } catch (error) {
      if (first) await undoFirst(deps, work);
      await settle(false);
      throw error;
    }
    await settle(true);
    return result;
  };
  // A stack's services go back, found by its namespace (a service the deployment created too); a
  // stack none of whose services stays (its first deploy was interrupted) loses what else that
  // created, as after a failed first deploy. A compose project is left as a stopped `up` leaves it,
  // as after a failed or cancelled deployment.
  const recover = async ({ deploymentId, compose, log }: InterruptedComposeWork) => {
    await restoreInterrupted(deps, deploymentId, await deps.stacks.services(compose.appName), log);
    if (compose.composeType === 'stack' && !(await holds(deps, compose, 'stack'))) await undoFirst(deps, { compose, log });
  };
  return Object.assign(run, { recover });
}

export function composeActionsWith(deps: ComposeDeps): ComposeActions {
  return {
    // Both kinds, as remove: a deploy as the other composeType may have left its kind running (a
    // compose project is found by its label, whatever file brought it up).
    async stop(compose) {
      await stopProject(deps, compose);
      await stopStack(deps, compose);
    },
    async remove(compose) {
      // Both kinds, also after a type change: what a deploy of either left is found by its label.
      await removeProject(deps, compose);
      await removeStack(deps, compose);
      await rm(join(deps.settings.sourcesDir, compose.appName), { recursive: true, force: true });
    },
  };
}
