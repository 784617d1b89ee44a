// ServiceEvents on dockerode: `GET /events` filtered to services, one JSON object a line.
import type Docker from 'dockerode';
import type { ServiceEvents } from '../../ports/service-events.ts';
import { fromEngine } from './progress.ts';

interface EngineEvent {
  readonly Action?: string;
  readonly Actor?: { readonly Attributes?: Readonly<Record<string, string>> };
}

const WATCHED: Docker.GetEventsOptions['filters'] = { type: ['service'], event: ['update', 'remove'] };

export function dockerServiceEvents(docker: Docker): ServiceEvents {
  return {
    async open(changed) {
      const stream = await fromEngine(() => docker.getEvents({ filters: WATCHED }));
      let pending = '';
      stream.on('data', (chunk: Buffer) => {
        // A chunk may hold several events, or part of one: whole lines only.
        const lines = (pending + chunk.toString('utf8')).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const name = nameOf(line);
          if (name) changed(name);
        }
      });
      const ended = new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
        stream.on('error', () => resolve()); // kept: a destroyed stream may fail again
      });
      return { ended, close: () => (stream as unknown as { destroy(): void }).destroy() };
    },
  };
}

function nameOf(line: string): string | null {
  if (line.trim() === '') return null;
  try {
    return (JSON.parse(line) as EngineEvent).Actor?.Attributes?.name ?? null;
  } catch {
    return null; // not an event: nothing to check
  }
}
