// ContainerEvents on dockerode: `GET /events` filtered at the engine to containers the compose tool
// labelled with a project, and to the actions that change whether they run: started, exited
// (`die`, also before a `stop`, and before the engine restarts one), removed.
import type Docker from 'dockerode';
import { PROJECT_LABEL } from '../../domain/compose/project-name.ts';
import type { ContainerEvents } from '../../ports/container-events.ts';
import { followEngineEvents } from './engine-events.ts';

const WATCHED: Docker.GetEventsOptions['filters'] = { type: ['container'], event: ['start', 'die', 'destroy'], label: [PROJECT_LABEL] };

export function dockerContainerEvents(docker: Docker): ContainerEvents {
  // A container event's attributes are its labels, with its name and image beside them.
  return { open: (changed) => followEngineEvents(docker, WATCHED, changed) };
}
