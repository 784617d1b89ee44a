import { conflict } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';

export type Protocol = 'tcp' | 'udp';

/** A port of an application published on the cluster's ingress. */
export interface Port {
  portId: string;
  publishedPort: number;
  targetPort: number;
  protocol: Protocol;
  applicationId: string;
  createdAt: string;
}

/** A port the application already publishes, as the handler read it: what a new binding must not repeat. */
export type Binding = Pick<Port, 'portId' | 'publishedPort' | 'targetPort' | 'protocol'>;

type Mapping = Pick<Port, 'portId' | 'publishedPort' | 'targetPort' | 'protocol'>;

export type PortCommand =
  | { type: 'CreatePort'; data: Port & { taken: readonly Binding[] } }
  | { type: 'UpdatePort'; data: Mapping & { taken: readonly Binding[] } }
  | { type: 'RemovePort'; data: { portId: string } };

export type PortEvent =
  | { type: 'PortCreated'; data: Port }
  | { type: 'PortUpdated'; data: Pick<Port, 'portId'> & Partial<Port> }
  | { type: 'PortRemoved'; data: { portId: string } };

const LABEL = 'Port';

/**
 * One application cannot publish the same port and protocol twice: the runtime would refuse it. Nor
 * publish one container port and protocol twice: the engine keys a service's host-mode bindings by
 * the container's port, so it would publish one of them, and the other host port would stay claimed
 * with nothing behind it.
 */
function mustBeFree(port: Mapping, taken: readonly Binding[]): void {
  const clash = taken.find((other) => other.portId !== port.portId
    && other.publishedPort === port.publishedPort && other.protocol === port.protocol);
  if (clash) throw conflict(`publishedPort ${port.publishedPort}/${port.protocol} is already published by this application`, 'publishedPort');
  mustNotRepeatTarget(port, taken);
}

/**
 * Exported so a handler can refuse a repeated container port before it claims anything. A sibling on
 * the same host port too is left to the host port's refusal, the clash a caller sees first.
 */
export function mustNotRepeatTarget(port: Mapping, taken: readonly Binding[]): void {
  const clash = taken.find((other) => other.portId !== port.portId && other.publishedPort !== port.publishedPort
    && other.targetPort === port.targetPort && other.protocol === port.protocol);
  if (clash) throw targetTaken(port.targetPort, port.protocol);
}

/** The refusal of a container port another port of the application publishes. */
export const targetTaken = (targetPort: number, protocol: string) =>
  conflict(`targetPort ${targetPort}/${protocol} is already published by another port of this application`, 'targetPort');

export const portAggregate: Aggregate<Port, PortCommand, PortEvent> = {
  name: 'port',
  idField: 'portId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'PortCreated': return { ...event.data };
      case 'PortUpdated': return state && { ...state, ...event.data };
      case 'PortRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreatePort': {
        mustNotExist(state, LABEL, 'portId');
        const { taken, ...port } = command.data;
        mustBeFree(port, taken);
        return [{ type: 'PortCreated', data: port }];
      }
      case 'UpdatePort': {
        const port = mustExist(state, 'portId', LABEL);
        const { taken, ...mapping } = command.data;
        mustBeFree(mapping, taken);
        return updated('PortUpdated', 'portId', port.portId, port, mapping);
      }
      case 'RemovePort':
        mustExist(state, 'portId', LABEL);
        return [{ type: 'PortRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
