// The reactor over application events: start, stop and reload on the engine, and a deleted
// application's runtime parts removed (see service-runtime.ts).
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Reactor } from '../runtime/reactor.ts';
import type { Deployer, DeployerDeps } from './deployer.ts';
import { serviceRuntime } from './service-runtime.ts';
import type { ServiceActions } from './work.ts';

export const applicationActions = (deps: DeployerDeps, deployer: Deployer, actions: ServiceActions): Reactor => serviceRuntime(deps, deployer, {
  name: 'application-runtime', aggregate: applicationAggregate as AnyAggregate,
}, actions);
