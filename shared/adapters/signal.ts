/** A wake-up call for waiters: a wait resolves at the next `notify()` (see `untilAny`). */
export class Signal {
  private readonly wakes = new Set<() => void>();

  /** Resolves at the next `notify()`, or once `timeoutMs` has passed. */
  wait(timeoutMs?: number): Promise<void> {
    return untilAny([this], { timeoutMs });
  }

  notify(): void {
    for (const wake of [...this.wakes]) wake();
  }

  /** How many waits are registered now: a wait that has resolved is not. */
  get waiting(): number {
    return this.wakes.size;
  }

  watch(wake: () => void): void {
    this.wakes.add(wake);
  }

  unwatch(wake: () => void): void {
    this.wakes.delete(wake);
  }
}

export interface Until {
  /** Resolve once this much time has passed. */
  readonly timeoutMs?: number;
  /** The timer keeps the process alive while it waits (by default it does not). */
  readonly holdProcess?: boolean;
  /** Resolve when this settles too: a promise made for this one wait, as it gets a reaction of its own. */
  readonly settled?: Promise<unknown>;
}

/**
 * Resolves at the first of: a `notify()` of any of `signals`, `timeoutMs` passing, `settled`
 * settling; and then leaves nothing registered on any of them. (Racing a signal's shared promise
 * instead left one reaction on it per race until it resolved: the subscriptions' stop signal,
 * which fires once in a process's life, held one per batch and per idle poll, without end.)
 */
export function untilAny(signals: readonly Signal[], { timeoutMs, holdProcess = false, settled }: Until = {}): Promise<void> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const wake = () => {
      for (const signal of signals) signal.unwatch(wake);
      clearTimeout(timer);
      resolve();
    };
    for (const signal of signals) signal.watch(wake);
    if (timeoutMs !== undefined) {
      timer = setTimeout(wake, timeoutMs);
      if (!holdProcess) timer.unref();
    }
    settled?.then(wake, wake);
  });
}
