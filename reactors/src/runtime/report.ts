// How a reactor reports what happened: a command through the aggregate's decider, caused by the
// event it reacted to (same correlation, the event as causation, the same actor).
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { DomainEvent, RecordedEvent } from '@berth/shared/events/event';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { execute, type Executed } from '@berth/shared/runtime/execute';
import { processStateCache } from '@berth/shared/runtime/state-cache';

export type Report = <S>(aggregate: AnyAggregate, id: string, command: DomainEvent, cause: RecordedEvent | null) => Promise<Executed<S>>;

/**
 * Decides on the folded-state cache this process shares with its API (so neither decides on a
 * state the other moved past) in the embedded mode; scaled out, on the log read afresh each time.
 */
export const reporter = (infra: Pick<Infrastructure, 'eventStore' | 'clock' | 'config'>): Report => {
  const cache = processStateCache(infra);
  return (aggregate, id, command, cause) => execute(infra.eventStore, aggregate, id, command, {
    actorId: cause?.metadata.actorId ?? null,
    correlationId: cause?.metadata.correlationId ?? `reactor-${Date.now()}`,
    causationId: cause?.id ?? null,
    occurredAt: infra.clock.now().toISOString(),
  }, cache);
};
