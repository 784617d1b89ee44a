// The engine watch on the infrastructure's engine, checking in the deployer's queue.
import { dockerClient } from '@berth/shared/adapters/docker/engine';
import { dockerServiceEvents } from '@berth/shared/adapters/docker/service-events';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Deployer } from '../deployer/deployer.ts';
import type { Report } from '../runtime/report.ts';
import { EngineWatch } from './watch.ts';

export function engineWatchOf(infra: Infrastructure, deployer: Deployer, report: Report): EngineWatch {
  return new EngineWatch({
    eventStore: infra.eventStore, readStore: infra.readStore, engine: infra.engine, report,
    events: dockerServiceEvents(dockerClient(infra.config.engineSocket)),
    // The queue's turn, not `inTurn`: an end held while the next deployment waits stays held (the
    // status `running`), rather than shown `done` in between for a check.
    inTurn: (serviceId, work) => deployer.queue.alone(serviceId, work),
  });
}
