// The engine watch on the infrastructure's engine, checking in the deployer's queue.
import { dockerClient } from '@berth/shared/adapters/docker/engine';
import { dockerContainerEvents } from '@berth/shared/adapters/docker/container-events';
import { dockerServiceEvents } from '@berth/shared/adapters/docker/service-events';
import { sourcesDirOf } from '@berth/shared/domain/compose/project-name';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { Deployer } from '../deployer/deployer.ts';
import type { Report } from '../runtime/report.ts';
import { EngineWatch } from './watch.ts';

export function engineWatchOf(infra: Infrastructure, deployer: Deployer, report: Report): EngineWatch {
  const docker = dockerClient(infra.config.engineSocket);
  return new EngineWatch({
    eventStore: infra.eventStore, readStore: infra.readStore, engine: infra.engine, report,
    settings: { sourcesDir: sourcesDirOf(infra.config.dataDir) },
    events: dockerServiceEvents(docker), containerEvents: dockerContainerEvents(docker),
    // The queue's turn, not `inTurn`: an end held while the next deployment waits stays held (the
    // status `running`), rather than shown `done` in between for a check.
    inTurn: (serviceId, work) => deployer.queue.alone(serviceId, work),
    recheckMs: infra.config.engineRecheckMs,
  });
}
