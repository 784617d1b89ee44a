// One service's check, in its turn: what the engine shows of it now, reported to its decider,
// which moves the status only when the engine contradicts it (engine-drift.ts).
import type { Drifted, EngineSight } from '@berth/shared/domain/application/engine-drift';
import type { Compose } from '@berth/shared/domain/compose/compose';
import type { ContainerEngine } from '@berth/shared/ports/container-engine';
import type { EventStore } from '@berth/shared/ports/event-store';
import { load } from '@berth/shared/runtime/execute';
import { projectContainers, RUNNING, type ProjectReader } from '../compose/project.ts';
import type { Report } from '../runtime/report.ts';
import { endedOnItsOwn, projectSightOf, sightOf, stackSightOf, type SeenContainer } from './sight.ts';
import { statusFieldOf, type WatchedService } from './watched.ts';

export interface CheckDeps extends ProjectReader {
  readonly eventStore: EventStore;
  readonly engine: Pick<ContainerEngine, 'inspectService' | 'listContainers' | 'inspectContainer'>;
  readonly report: Report;
}

type WatchedRecord = Drifted & { appName: string } & Partial<Pick<Compose, 'composeType' | 'fetchedServices'>> & { [field: string]: unknown };

export async function checkService(deps: CheckDeps, { aggregate, id }: WatchedService): Promise<void> {
  const state = (await load(deps.eventStore, aggregate, id)).state as WatchedRecord | null;
  // Nothing the engine could contradict: a deployment running, a stop, a failure of Berth's own.
  if (!state || (state[statusFieldOf(aggregate)] !== 'done' && state.engineDrift === undefined)) return;
  const seen = await sightOfRecord(deps, state);
  if (seen === null) return;
  await deps.report(aggregate, id, { type: 'RecordEngineState', data: { [aggregate.idField]: id, seen } }, null);
}

/**
 * An application's or database's one service; each service a stack's last deployment brought up;
 * a compose project's containers; null for what is not watched.
 */
async function sightOfRecord(deps: CheckDeps, record: WatchedRecord): Promise<EngineSight | null> {
  const spec = async (name: string) => (await deps.engine.inspectService(name))?.spec ?? null;
  if (record.composeType === undefined) return sightOf(await spec(record.appName));
  if (record.composeType === 'container-compose') return projectSightOf(await seenContainers(deps, record));
  if (!record.fetchedServices?.length) return null;
  return stackSightOf(await Promise.all(record.fetchedServices.map(async (name) => sightOf(await spec(`${record.appName}_${name}`)))));
}

interface InspectedEnd {
  readonly HostConfig?: { readonly RestartPolicy?: { readonly Name?: string } };
  readonly State?: { readonly ExitCode?: number };
}

/** The project's containers; those that do not run inspected for how they ended (a one-off that did its work is no change). */
async function seenContainers(deps: CheckDeps, record: WatchedRecord): Promise<SeenContainer[]> {
  return Promise.all((await projectContainers(deps, record)).map(async (container) => {
    if (RUNNING.has(container.state)) return container;
    const inspected = await deps.engine.inspectContainer(container.containerId) as InspectedEnd | null;
    return { ...container, finished: endedOnItsOwn(inspected?.HostConfig?.RestartPolicy?.Name, inspected?.State?.ExitCode) };
  }));
}
