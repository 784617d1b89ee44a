// The compose work on the infrastructure's engine, and the reactor over compose service events
// (stop, and the stack removed on delete), in the shape the deployer's service runtime takes.
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Reactor } from '../runtime/reactor.ts';
import type { Deployer, DeployerDeps } from '../deployer/deployer.ts';
import { serviceRuntime } from '../deployer/service-runtime.ts';
import { composeDepsOf } from './deps.ts';
import { composeActionsWith, runComposeWith } from './run.ts';
import type { ComposeActions, RunComposeDeployment } from './work.ts';

export interface ComposeEngineWork {
  readonly run: RunComposeDeployment;
  readonly actions: ComposeActions;
}

export function composeWorkOf(infra: Infrastructure): ComposeEngineWork {
  const deps = composeDepsOf(infra);
  return { run: runComposeWith(deps), actions: composeActionsWith(deps) };
}

export const composeRuntime = (deps: DeployerDeps, deployer: Deployer, actions: ComposeActions): Reactor => serviceRuntime(deps, deployer, {
  name: 'compose-runtime', aggregate: composeAggregate as AnyAggregate,
}, actions);
