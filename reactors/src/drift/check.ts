// One service's check, in its turn: what the engine shows of it now, reported to its decider,
// which moves the status only when the engine contradicts it (engine-drift.ts).
import type { Drifted, EngineSight } from '@berth/shared/domain/application/engine-drift';
import type { Compose } from '@berth/shared/domain/compose/compose';
import type { ContainerEngine } from '@berth/shared/ports/container-engine';
import type { EventStore } from '@berth/shared/ports/event-store';
import { load } from '@berth/shared/runtime/execute';
import type { Report } from '../runtime/report.ts';
import { sightOf, stackSightOf } from './sight.ts';
import { statusFieldOf, type WatchedService } from './watched.ts';

export interface CheckDeps {
  readonly eventStore: EventStore;
  readonly engine: Pick<ContainerEngine, 'inspectService'>;
  readonly report: Report;
}

type WatchedRecord = Drifted & { appName: string } & Partial<Pick<Compose, 'composeType' | 'fetchedServices'>> & { [field: string]: unknown };

export async function checkService(deps: CheckDeps, { aggregate, id }: WatchedService): Promise<void> {
  const state = (await load(deps.eventStore, aggregate, id)).state as WatchedRecord | null;
  // Nothing the engine could contradict: a deployment running, a stop, a failure of Berth's own.
  if (!state || (state[statusFieldOf(aggregate)] !== 'done' && state.engineDrift === undefined)) return;
  const seen = await sightOfRecord(deps.engine, state);
  if (seen === null) return;
  await deps.report(aggregate, id, { type: 'RecordEngineState', data: { [aggregate.idField]: id, seen } }, null);
}

/** An application's or database's one service; each service a stack's last deployment brought up; null for what is not watched. */
async function sightOfRecord(engine: CheckDeps['engine'], record: WatchedRecord): Promise<EngineSight | null> {
  const spec = async (name: string) => (await engine.inspectService(name))?.spec ?? null;
  if (record.composeType === undefined) return sightOf(await spec(record.appName));
  // A `docker-compose` one runs plain containers, which this watch of services does not see.
  if (record.composeType !== 'stack' || !record.fetchedServices?.length) return null;
  return stackSightOf(await Promise.all(record.fetchedServices.map(async (name) => sightOf(await spec(`${record.appName}_${name}`)))));
}
