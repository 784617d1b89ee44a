// Live views of the container runtime and the orchestrator's nodes.
import { group, get, none, post } from './operation.ts';
import { Type } from '@sinclair/typebox';
import { Bool, Closed, MinStr, Str } from './schema.ts';

const ContainerSummary = Closed({
  containerId: Str(), name: Str(), image: Str(), state: Str(), status: Str(),
  labels: Type.Record(Str(), Str()), ports: Str(),
});
/** The engine's own document (an inspected container, a node), answered as the engine gives it. */
const EngineDocument = Type.Object({}, { additionalProperties: true });
/** The command a node runs to join, and its parts. */
const JoinCommand = Closed({ command: Str(), token: Str(), managerAddress: Str() });
const NodeSummary = Closed({
  id: Str(), hostname: Str(), role: Str(), availability: Str(), state: Str(), address: Str(), leader: Bool(), engineVersion: Str(),
});

export const container = group('container', {
  getContainers: get(none, Type.Array(ContainerSummary)),
  getConfig: get(Closed({ containerId: MinStr() }), EngineDocument),
  getContainersByAppNameMatch: get(Closed({ appName: MinStr() }), Type.Array(ContainerSummary)),
  getContainersByAppLabel: get(Closed({ appName: MinStr() }), Type.Array(ContainerSummary)),
});

export const cluster = group('cluster', {
  getNodes: get(none, Type.Array(NodeSummary)),
  removeWorker: post(Closed({ nodeId: Str() }), Bool()),
  addWorker: get(none, JoinCommand),
  addManager: get(none, JoinCommand),
});
