// The engine answers builds, pulls and pushes as a stream of JSON lines; a failure arrives as an
// `{ error }` line inside a successful response, never as a rejected request.
import { EngineError } from '../../ports/container-engine.ts';
import { isSocketOutage, UnavailableError } from '../../ports/unavailable.ts';

interface ProgressLine {
  stream?: string;
  status?: string;
  id?: string;
  progressDetail?: { current?: number };
  error?: string;
  errorDetail?: { message?: string };
  aux?: unknown;
}

/** Reads the stream to its end, passing readable lines to `onLine`; throws the first error line. */
export async function followProgress(stream: NodeJS.ReadableStream, onLine: (line: string) => void = () => {}): Promise<void> {
  let failure: string | null = null;
  let pending = '';
  const handle = (text: string) => {
    if (!text.trim()) return;
    let line: ProgressLine;
    try {
      line = JSON.parse(text) as ProgressLine;
    } catch {
      onLine(text.trim());
      return;
    }
    if (line.error !== undefined) {
      failure ??= line.errorDetail?.message ?? line.error;
      onLine(`error: ${line.error.trim()}`);
    } else if (line.stream !== undefined) {
      for (const part of line.stream.split('\n')) if (part.trim()) onLine(part.trimEnd());
    } else if (line.status !== undefined && line.progressDetail?.current === undefined) {
      // Byte counters of layers would drown the log: keep the status lines only.
      onLine(line.id ? `${line.id}: ${line.status}` : line.status);
    }
  };
  for await (const chunk of stream) {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(handle);
  }
  handle(pending);
  if (failure !== null) throw new EngineError(failure);
}

/**
 * The engine's own reason from a rejected request of dockerode; an engine that could not be
 * reached at all is no refusal but an outage (503, try again), whatever was asked of it.
 */
export function engineError(error: unknown): EngineError | UnavailableError {
  if (error instanceof EngineError || error instanceof UnavailableError) return error;
  if (isSocketOutage(error)) return new UnavailableError('The container engine', error);
  const failure = error as { statusCode?: number; json?: { message?: string } | null; message?: string };
  const message = failure.json?.message ?? failure.message ?? String(error);
  return new EngineError(message.trim(), failure.statusCode ?? null);
}

export const isNotFound = (error: unknown) => (error as { statusCode?: number }).statusCode === 404;

/**
 * Bound on a call the engine answers at once (an inspect, a list, info, a node or swarm call, one
 * stats sample): an engine that takes the connection and never answers would hold the caller, an
 * API request too, forever. Builds, pulls, pushes, exec streams, stops and writes (services, networks, secrets, configs) take
 * as long as they need and are never bounded (so the client itself has no timeout).
 */
export const ANSWER_TIMEOUT_MS = 10_000;

/** `call`'s answer; past ANSWER_TIMEOUT_MS its request is aborted and the silence is an outage. */
export async function answered<T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new UnavailableError('The container engine', new Error(`it took the request but gave no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)));
    }, ANSWER_TIMEOUT_MS);
  });
  try {
    return await Promise.race([call(controller.signal), silence]);
  } finally {
    clearTimeout(timer);
  }
}

async function asEngineFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw engineError(error);
  }
}

/** `call`'s answer, bounded as a short call, or its failure as the engine's reason (or an outage). */
export const fromEngine = <T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> => asEngineFailure(() => answered(call));

/**
 * A write's answer (a network, secret or config created), unbounded: the engine may be slow under
 * load, and a write it was not told to drop would still be made after the caller gave up.
 */
export const writtenByEngine = <T>(call: () => Promise<T>): Promise<T> => asEngineFailure(call);

/** Whether the engine found what `operation` acted on: false on 404, any other failure thrown. */
export async function foundBy(operation: () => Promise<unknown>): Promise<boolean> {
  try {
    await operation();
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw engineError(error);
  }
}

/** An inspect's answer, bounded; null when the engine has no such object (404). */
export async function inspectedOrNull<T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<T | null> {
  try {
    return await answered(call);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw engineError(error);
  }
}
