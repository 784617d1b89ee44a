// The engine's stream of container events for compose projects (started, exited, removed), as the
// engine watch follows it: only each container's labels, which name its project; the watch reads
// the project again in the service's turn.
import type { ServiceEventStream } from './service-events.ts';

export interface ContainerEvents {
  /** Opens the stream; `changed` hears the labels of each compose-labelled container started, exited or removed from then on. Rejects when the engine is out of reach. */
  open(changed: (labels: Readonly<Record<string, string>>) => void): Promise<ServiceEventStream>;
}
