// The compose work the deployer runs: fetch the file, record the services it names and claim the
// host ports it publishes, then bring it up as a stack or a compose project; and stop and delete on the engine.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { serviceNames } from '@berth/shared/domain/compose/compose-file';
import { publishedPorts } from '@berth/shared/domain/compose/ports';
import type { ComposeDeps } from './deps.ts';
import { readingTheFile } from './file-failure.ts';
import { composeUp, interpolationEnv } from './container-compose.ts';
import { removeProject, stopProject } from './project.ts';
import { fetchComposeFile } from './source.ts';
import { deployStack, removeStack, stopStack } from './stack.ts';
import type { DeploymentResult } from '../deployer/work.ts';
import { restoreInterrupted } from '../deployer/rollout.ts';
import type { ComposeActions, ComposeWork, InterruptedComposeWork, RunComposeDeployment } from './work.ts';

export function runComposeWith(deps: ComposeDeps): RunComposeDeployment {
  const run = async (work: ComposeWork): Promise<DeploymentResult> => {
    const fetched = await fetchComposeFile(deps, work.compose, work);
    // The ports as the file will publish them: a compose project's ${VARIABLES} come from its .env too.
    const env = work.compose.composeType === 'stack' ? work.compose.env : interpolationEnv(fetched, work.compose);
    const ports = readingTheFile(() => publishedPorts(fetched.text, env));
    const settle = await work.fileFetched({ services: serviceNames(fetched.text), ports });
    let result: DeploymentResult;
    try {
      work.signal.throwIfAborted();
      work.log(`Bringing up ${work.compose.appName} as a ${work.compose.composeType}`);
      if (work.compose.composeType === 'stack' && work.compose.command.trim()) {
        work.log("The service's command is not used: a stack is deployed through the orchestrator's API, not a command");
      }
      result = await (work.compose.composeType === 'stack' ? deployStack(deps, work, fetched) : composeUp(deps, work, fetched));
    } catch (error) {
      await settle(false);
      throw error;
    }
    await settle(true);
    return result;
  };
  // A stack's services, found by its namespace (a service the deployment created too); a compose
  // project is left as a stopped `up` leaves it, as after a failed or cancelled deployment.
  const recover = async ({ deploymentId, compose, log }: InterruptedComposeWork) =>
    restoreInterrupted(deps, deploymentId, await deps.stacks.services(compose.appName), log);
  return Object.assign(run, { recover });
}

export function composeActionsWith(deps: ComposeDeps): ComposeActions {
  return {
    // A compose project by its label, whatever file brought it up.
    stop: (compose) => (compose.composeType === 'stack' ? stopStack(deps, compose) : stopProject(deps, compose)),
    async remove(compose) {
      // Both kinds, also after a type change: what a deploy of either left is found by its label.
      await removeProject(deps, compose);
      await removeStack(deps, compose);
      await rm(join(deps.settings.sourcesDir, compose.appName), { recursive: true, force: true });
    },
  };
}
