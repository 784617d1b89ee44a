// Live views of the container runtime and the orchestrator's nodes.
import { group, get, none, post } from './operation.ts';
import { Closed, MinStr, Str } from './schema.ts';

export const container = group('container', {
  getContainers: get(none),
  getConfig: get(Closed({ containerId: MinStr() })),
  getContainersByAppNameMatch: get(Closed({ appName: MinStr() })),
  getContainersByAppLabel: get(Closed({ appName: MinStr() })),
});

export const cluster = group('cluster', {
  getNodes: get(none),
  removeWorker: post(Closed({ nodeId: Str() })),
  addWorker: get(none),
  addManager: get(none),
});
