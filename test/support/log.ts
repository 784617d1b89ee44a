// The log as a test reaches it beside the API: who a usage stream counts, and commands no request
// makes, to leave a log as an earlier version (or a removal that stopped part-way) left it.
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { fold } from '@berth/shared/domain/aggregate';
import { usageAggregate, usageKey, type UsageKind } from '@berth/shared/domain/usage/usage';
import type { DomainEvent } from '@berth/shared/events/event';
import { execute } from '@berth/shared/runtime/execute';
import { processStateCache } from '@berth/shared/runtime/state-cache';
import type { TestBerth } from './berth.ts';

/** Decides and appends `command` on the record's stream, as a process of no account would. */
export const executeInLog = (berth: TestBerth, aggregate: AnyAggregate, id: string, command: DomainEvent) =>
  execute(berth.berth.infrastructure.eventStore, aggregate, id, command,
    { actorId: null, correlationId: 'test', causationId: null, occurredAt: new Date().toISOString() },
    processStateCache(berth.berth.infrastructure));

/** Who the log counts among a resource's users (sorted), and whether it is retired. */
export async function usageOf(berth: TestBerth, kind: UsageKind, id: string) {
  const { events } = await berth.berth.infrastructure.eventStore.readStream(`usage-${usageKey(kind, id)}`);
  const state = fold(usageAggregate, events as never);
  return { users: [...state?.users ?? []].sort(), retired: state?.retired ?? false };
}

/** As a record created before uses were recorded: its use of the resource taken back out of the log. */
export function forgetUse(berth: TestBerth, kind: UsageKind, id: string, user: string) {
  const key = usageKey(kind, id);
  return executeInLog(berth, usageAggregate as unknown as AnyAggregate, key, { type: 'StopUsing', data: { key, user } });
}
