// ServiceEvents on dockerode: `GET /events` filtered to services, one JSON object a line.
import type Docker from 'dockerode';
import type { ServiceEvents } from '../../ports/service-events.ts';
import { followEngineEvents } from './engine-events.ts';

const WATCHED: Docker.GetEventsOptions['filters'] = { type: ['service'], event: ['update', 'remove'] };

export function dockerServiceEvents(docker: Docker): ServiceEvents {
  return {
    open: (changed) => followEngineEvents(docker, WATCHED, (attributes) => {
      if (attributes.name) changed(attributes.name);
    }),
  };
}
