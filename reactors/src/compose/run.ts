// The compose work the deployer runs: fetch the file, then bring it up as a stack or a compose
// project; and stop and delete on the engine.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComposeDeps } from './deps.ts';
import { composeUp, onLastDeploy } from './container-compose.ts';
import { fetchComposeFile } from './source.ts';
import { deployStack, removeStack, stopStack } from './stack.ts';
import type { ComposeActions, RunComposeDeployment } from './work.ts';

export function runComposeWith(deps: ComposeDeps): RunComposeDeployment {
  return async (work) => {
    const fetched = await fetchComposeFile(deps, work.compose, work);
    work.signal.throwIfAborted();
    work.log(`Bringing up ${work.compose.appName} as a ${work.compose.composeType}`);
    if (work.compose.composeType === 'stack' && work.compose.command.trim()) {
      work.log("The service's command is not used: a stack is deployed through the orchestrator's API, not a command");
    }
    return work.compose.composeType === 'stack' ? deployStack(deps, work, fetched) : composeUp(deps, work, fetched);
  };
}

export function composeActionsWith(deps: ComposeDeps): ComposeActions {
  return {
    stop: (compose) => (compose.composeType === 'stack' ? stopStack(deps, compose) : onLastDeploy(deps, compose, ['stop'])),
    async remove(compose) {
      if (compose.composeType === 'container-compose') await onLastDeploy(deps, compose, ['down', '--remove-orphans']);
      // Also after a type change: what a stack deploy left is found by its label.
      await removeStack(deps, compose);
      await rm(join(deps.settings.sourcesDir, compose.appName), { recursive: true, force: true });
    },
  };
}
