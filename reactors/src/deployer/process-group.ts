// A tool run in its own process group (spawned detached) is stopped as a group: the builders a
// pack CLI starts, and their children, end with it instead of building on as orphans.
import type { ChildProcess } from 'node:child_process';

/** How long the group has to end on SIGTERM before it is killed. */
const GRACE_MS = 5_000;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch { /* the group is gone already */ }
}

/**
 * Sends the group SIGTERM when `signal` aborts, and SIGKILL after the grace period. `end`, called
 * once the tool closed, kills what an aborted run's group still holds (a child that ignored SIGTERM).
 */
export function stopGroupOnAbort(child: ChildProcess, signal: AbortSignal): { end(): void } {
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    signalGroup(child, 'SIGTERM');
    timer = setTimeout(() => signalGroup(child, 'SIGKILL'), GRACE_MS);
    timer.unref();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    end() {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      if (signal.aborted) signalGroup(child, 'SIGKILL');
    },
  };
}
