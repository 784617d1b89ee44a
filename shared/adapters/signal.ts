/** A wake-up call for waiters: `wait()` resolves at the next `notify()`. */
export class Signal {
  private waiting: { promise: Promise<void>; resolve: () => void } | null = null;

  wait(): Promise<void> {
    if (!this.waiting) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.waiting = { promise, resolve };
    }
    return this.waiting.promise;
  }

  notify(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve();
  }
}
