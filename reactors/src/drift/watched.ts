// The services the engine watch checks, found in the read models: those an engine service's or a
// compose project's container's event names, and, at start, after each reconnect and at each recheck,
// every one whose status the engine could contradict.
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { SERVICE_KINDS } from '@berth/shared/domain/service-kinds';
import type { Doc, ReadStore } from '@berth/shared/ports/read-store';

export interface WatchedService {
  readonly aggregate: AnyAggregate;
  readonly id: string;
}

export const statusFieldOf = (aggregate: AnyAggregate): 'composeStatus' | 'applicationStatus' =>
  aggregate.name === composeAggregate.name ? 'composeStatus' : 'applicationStatus';

const watchedOf = (aggregate: AnyAggregate, docs: readonly Doc[]): WatchedService[] =>
  docs.map((doc) => ({ aggregate, id: String(doc[aggregate.idField]) }));

/**
 * The services an engine service of this name may belong to: an application or database of that
 * appName, or a stack whose namespace (its appName) is the name up to one of its `_`.
 */
export async function servicesNamed(readStore: ReadStore, serviceName: string): Promise<WatchedService[]> {
  const found: WatchedService[] = [];
  for (const { aggregate } of SERVICE_KINDS) {
    const names = aggregate.name === composeAggregate.name ? namespacesOf(serviceName) : [serviceName];
    for (const appName of names) found.push(...watchedOf(aggregate, await readStore.find(aggregate.name, 'appName', appName)));
  }
  return found;
}

/** The compose service of this appName, whose project a container event names. */
export const composeNamed = async (readStore: ReadStore, appName: string): Promise<WatchedService[]> =>
  watchedOf(composeAggregate, await readStore.find(composeAggregate.name, 'appName', appName));

const namespacesOf = (serviceName: string): string[] =>
  [...serviceName.matchAll(/_/g)].map((match) => serviceName.slice(0, match.index));

/** Every service `done`, or set to `error` by a change seen on the engine: what a reconcile checks. */
export async function servicesToReconcile(readStore: ReadStore): Promise<WatchedService[]> {
  const found: WatchedService[] = [];
  for (const { aggregate } of SERVICE_KINDS) {
    const field = statusFieldOf(aggregate);
    found.push(...watchedOf(aggregate, await readStore.find(aggregate.name, field, 'done')));
    found.push(...watchedOf(aggregate, (await readStore.find(aggregate.name, field, 'error')).filter((doc) => doc.engineDrift !== undefined)));
  }
  return found;
}
