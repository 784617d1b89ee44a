// The engine answers builds, pulls and pushes as a stream of JSON lines; a failure arrives as an
// `{ error }` line inside a successful response, never as a rejected request.
import { EngineError } from '../../ports/container-engine.ts';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { isSocketOutage, isUnavailable, UnavailableError } from '../../ports/unavailable.ts';
import { messageOf } from '../../errors.ts';

interface ProgressLine {
  stream?: string;
  status?: string;
  id?: string;
  progressDetail?: { current?: number };
  error?: string;
  errorDetail?: { message?: string };
  aux?: unknown;
}

/** A stream's text without a newline is passed on as a line past this length (a progress bar redrawn with `\r` for ever). */
const LONGEST_UNFINISHED = 1024 * 1024;

/**
 * Reads the stream to its end, passing readable lines to `onLine`; throws the first error line.
 * `heard` is told of every chunk, however little it says (a layer's byte counter too).
 */
export async function followProgress(stream: NodeJS.ReadableStream, onLine: (line: string) => void = () => {},
  heard: () => void = () => {}): Promise<void> {
  let failure: string | null = null;
  let pending = '';
  // The builder cuts its output anywhere, mid-line too: a stream's text after its last newline
  // waits for the rest of its line (a log line whole, and a step's ` ---> <id>` recognised).
  let unfinished = '';
  const finish = () => {
    if (unfinished.trim()) onLine(unfinished.trimEnd());
    unfinished = '';
  };
  const handle = (text: string) => {
    if (!text.trim()) return;
    let line: ProgressLine;
    try {
      line = JSON.parse(text) as ProgressLine;
    } catch {
      finish();
      onLine(text.trim());
      return;
    }
    if (line.stream !== undefined) {
      const parts = (unfinished + line.stream).split('\n');
      unfinished = parts.pop()!;
      for (const part of parts) if (part.trim()) onLine(part.trimEnd());
      if (unfinished.length > LONGEST_UNFINISHED) finish();
      return;
    }
    finish();
    if (line.error !== undefined) {
      failure ??= line.errorDetail?.message ?? line.error;
      onLine(`error: ${line.error.trim()}`);
    } else if (line.status !== undefined && line.progressDetail?.current === undefined) {
      // Byte counters of layers would drown the log: keep the status lines only.
      onLine(line.id ? `${line.id}: ${line.status}` : line.status);
    }
  };
  // A chunk may end inside a character (build output is not all ASCII): the decoder keeps its first bytes for the next.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) {
    heard();
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(handle);
  }
  handle(pending + decoder.end());
  finish();
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
 * API request too, forever. Exec streams, stops and writes (services, networks, secrets, configs)
 * take as long as they need and are never bounded (so the client itself has no timeout); builds,
 * pulls and pushes take as long as they need too, but not a silence of the engine (followStream).
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

/**
 * How long a build, pull or push stream may say nothing before Berth asks the engine whether it is
 * still there. No bound on the operation: a big pull takes as long as it needs while its bytes
 * come, and a build step that prints nothing for minutes (a compile) goes on while the engine
 * answers; only an engine that is silent on the stream and does not answer a ping either has gone.
 */
export const PROGRESS_IDLE_MS = ANSWER_TIMEOUT_MS;

export interface StreamWatch {
  /** One readable line of the engine's progress. */
  readonly onLine?: ((line: string) => void) | undefined;
  /** The caller's (a deployment's cancellation): its abort ends the request at once, and the call throws its reason. */
  readonly signal?: AbortSignal | undefined;
  /** Settles once the engine answered a short call (a ping), bounded; rejects when it did not. */
  readonly alive: (abortSignal: AbortSignal) => Promise<unknown>;
  /** PROGRESS_IDLE_MS, unless a test needs less. */
  readonly idleMs?: number;
}


/**
 * Opens one of the engine's progress streams (`open` gives its request the signal) and follows it
 * to its end as followProgress does. After `idleMs` without a byte (from the request on: the
 * answer's headers may never come either) the engine is pinged; one that does not answer that
 * either has gone (stalled, or its host lost without closing anything): the request is dropped and
 * the call fails as an outage (UnavailableError), where it would otherwise wait forever.
 */
export async function followStream(open: (abortSignal: AbortSignal) => Promise<NodeJS.ReadableStream>, watch: StreamWatch): Promise<void> {
  const { signal, alive, idleMs = PROGRESS_IDLE_MS } = watch;
  signal?.throwIfAborted();
  const request = new AbortController();
  const probe = new AbortController();
  let stream: NodeJS.ReadableStream | null = null;
  let outage: UnavailableError | null = null;
  let lastHeard = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const drop = (reason: unknown) => {
    clearTimeout(timer);
    probe.abort();
    request.abort(reason);
    // The request's abort ends its answer too; destroying the answer as well wakes its reader at once, whatever the client does.
    (stream as Partial<Pick<Readable, 'destroy'>> | null)?.destroy?.(reason instanceof Error ? reason : new Error(messageOf(reason)));
  };
  const cancelled = () => drop(signal?.reason);
  const arm = (ms: number) => { timer = setTimeout(() => void check(), ms); };
  const check = async () => {
    const quiet = Date.now() - lastHeard;
    // Bytes came since the timer was set: wait out the rest of the bound from the last of them.
    if (quiet < idleMs) return arm(idleMs - quiet);
    const asked = Date.now();
    try {
      await alive(probe.signal);
    } catch (error) {
      if (probe.signal.aborted || lastHeard >= asked) {
        if (!probe.signal.aborted) arm(idleMs);
        return; // ended meanwhile, or the stream spoke while the ping went unanswered: the engine is there
      }
      const why = isUnavailable(error) && error.cause instanceof Error ? error.cause.message : messageOf(error);
      outage = new UnavailableError('The container engine', new Error(`it sent nothing for ${idleMs / 1000} s and did not answer a ping (${why})`));
      drop(outage);
      return;
    }
    if (!probe.signal.aborted) arm(idleMs);
  };
  signal?.addEventListener('abort', cancelled, { once: true });
  arm(idleMs);
  try {
    stream = await open(request.signal);
    await followProgress(stream, watch.onLine, () => { lastHeard = Date.now(); });
  } catch (error) {
    if (outage) throw outage;
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancelled);
    clearTimeout(timer);
    probe.abort(); // a ping still asking is not needed any more
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
