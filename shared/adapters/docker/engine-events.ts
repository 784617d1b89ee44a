// The engine's `GET /events` stream, filtered at the engine, one JSON object a line: each event's
// actor attributes (a service's name, a container's labels) handed on as they come.
import type Docker from 'dockerode';
import type { ServiceEventStream } from '../../ports/service-events.ts';
import { fromEngine } from './progress.ts';

interface EngineEvent {
  readonly Actor?: { readonly Attributes?: Readonly<Record<string, string>> };
}

export async function followEngineEvents(
  docker: Docker,
  filters: Docker.GetEventsOptions['filters'],
  heard: (attributes: Readonly<Record<string, string>>) => void,
): Promise<ServiceEventStream> {
  const stream = await fromEngine(() => docker.getEvents({ filters }));
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    // A chunk may hold several events, or part of one: whole lines only.
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const attributes = attributesOf(line);
      if (attributes) heard(attributes);
    }
  });
  const ended = new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.on('error', () => resolve()); // kept: a destroyed stream may fail again
  });
  return { ended, close: () => (stream as unknown as { destroy(): void }).destroy() };
}

function attributesOf(line: string): Readonly<Record<string, string>> | null {
  if (line.trim() === '') return null;
  try {
    return (JSON.parse(line) as EngineEvent).Actor?.Attributes ?? null;
  } catch {
    return null; // not an event: nothing to check
  }
}
