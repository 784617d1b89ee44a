// The services with a start, stop or reload asked and not answered yet, one small document per
// service. The reactors acknowledge a request on the bus before they do it (an action waits for its
// service's turn without holding the bus), so the bus never hands out again one a stopped or killed
// process left undone: the reactors take these up when they start.
import { PENDING_ACTIONS, SERVICE_KINDS, requestIdOf, type ServiceKindOfProject } from '@berth/shared/domain/service-kinds';
import type { Projection } from './projection.ts';

const byAggregate = new Map<string, ServiceKindOfProject>(SERVICE_KINDS.map((kind) => [kind.aggregate.name, kind]));

export const pendingActions: Projection = {
  name: 'pendingActions',
  collections: [PENDING_ACTIONS],
  aggregates: [...byAggregate.keys()],
  keysOf: (event, stream) => (typeof requestIdOf(event) === 'string' || event.type === byAggregate.get(stream.aggregate)!.removed
    ? [{ collection: PENDING_ACTIONS, id: stream.id }] : []),
  evolve(doc, event, stream) {
    const kind = byAggregate.get(stream.aggregate)!;
    if (event.type === kind.removed) return null;
    const requestId = requestIdOf(event) as string;
    const before = (doc?.requests ?? []) as string[];
    // Any other event naming the request answers it (the action's outcome).
    const requests = event.type === kind.actionRequested ? [...before, requestId] : before.filter((id) => id !== requestId);
    return requests.length > 0 ? { aggregate: stream.aggregate, id: stream.id, requests } : null;
  },
};
