// Bounded waits on the engine, shared by the service actions, the rollout and the compose stacks.
import { SERVICE_LABEL } from '@berth/shared/ports/container-engine';
import type { DeployerDeps, DeployerSettings } from './deps.ts';

/** What a wait on the engine needs: the engine and the bound on it (databases' stop waits too). */
export type EngineWait = Pick<DeployerDeps, 'engine'> & { readonly settings: Pick<DeployerSettings, 'taskStartTimeoutMs'> };

/** Polls `done` until it holds, within the deployer's bound on engine waits. */
export async function until(deps: EngineWait, what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + deps.settings.taskStartTimeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${deps.settings.taskStartTimeoutMs} ms waiting for ${what}`);
}

/** Resolves once no container of the (removed) service `name` runs; a job's exited ones may stay. */
export const untilGone = (deps: EngineWait, name: string): Promise<void> =>
  until(deps, `the tasks of ${name} to stop`, async () =>
    !(await deps.engine.listContainers({ label: `${SERVICE_LABEL}=${name}` })).some((container) => container.state === 'running'));
