// A deployment that failed (or was interrupted) after it wrote its spec must not end while the
// engine still runs that spec: when the engine cannot be reached to put the service back, the
// deployment stays `running` and the deployer tries again until the engine answers. Running, it
// keeps its service's turn of the queue, so no later deployment nor action (stop, removal) of the
// service runs before the service is back; and a restart meanwhile finds it `running`, as an
// interrupted one, and puts the service back the same way (by the deployment label on the spec).
import { setTimeout as sleep } from 'node:timers/promises';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { reasonOf } from './reason.ts';

/** The first wait before trying again, doubled at each failure up to the longest. */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 10_000;

/**
 * Thrown by deployment work that failed and could not put back what it wrote on the engine, which
 * could not be reached. Its message is the work's own failure: the deployment's reason once the
 * service is back.
 */
export class RestorePending extends Error {
  constructor(readonly failure: unknown, readonly restoreFailure: unknown) {
    super(reasonOf(failure), { cause: restoreFailure });
    this.name = 'RestorePending';
  }
}

/** By name, as isUnavailable: the module may be loaded twice. */
export const isRestorePending = (error: unknown): error is RestorePending => error instanceof Error && error.name === 'RestorePending';

/**
 * Runs `restore` until it is done, waiting longer each time the engine cannot be reached; a failure
 * of another kind is logged and not tried again (the engine answered: trying again would not help).
 * Answers false when `stop` aborts first: the service is not back, the deployment must stay `running`.
 */
export async function restoreWhenReachable(restore: () => Promise<void>, log: (line: string) => void, stop: AbortSignal): Promise<boolean> {
  let told = false;
  for (let wait = FIRST_RETRY_MS; !stop.aborted; wait = Math.min(wait * 2, LONGEST_RETRY_MS)) {
    try {
      await restore();
      return true;
    } catch (error) {
      if (!isUnavailable(error)) {
        log(`Could not restore the service: ${reasonOf(error)}`);
        return true;
      }
      // Once: a line per attempt would fill the log for as long as the engine is away.
      if (!told) log(`Could not restore the service yet (${reasonOf(error)}): trying again until the engine answers`);
      told = true;
    }
    await sleep(wait, undefined, { signal: stop }).catch(() => {});
  }
  return false;
}
