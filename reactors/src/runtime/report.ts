// How a reactor reports what happened: a command through the aggregate's decider, caused by the
// event it reacted to (same correlation, the event as causation, the same actor).
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { DomainEvent, RecordedEvent } from '@berth/shared/events/event';
import type { Clock } from '@berth/shared/ports/clock';
import type { EventStore } from '@berth/shared/ports/event-store';
import { execute, type Executed } from '@berth/shared/runtime/execute';
import { stateCacheOf } from '@berth/shared/runtime/state-cache';

export type Report = <S>(aggregate: AnyAggregate, id: string, command: DomainEvent, cause: RecordedEvent | null) => Promise<Executed<S>>;

export const reporter = (store: EventStore, clock: Clock): Report => (aggregate, id, command, cause) =>
  execute(store, aggregate, id, command, {
    actorId: cause?.metadata.actorId ?? null,
    correlationId: cause?.metadata.correlationId ?? `reactor-${Date.now()}`,
    causationId: cause?.id ?? null,
    occurredAt: clock.now().toISOString(),
  }, stateCacheOf(store)); // shared with the API of this process, so neither decides on a state the other moved past
