// Which deployment runs when: those of one service one at a time, in the order they were queued;
// different services at once, up to a limit. It only orders jobs; running one is `run`'s business.
// A service's runtime actions (start, stop, reload, removal) take the service's turn too: one never
// lands in the middle of its deployment, nor a deployment in the middle of one.

export interface QueuedJob {
  readonly deploymentId: string;
  readonly serviceId: string;
}

export class DeploymentQueue<J extends QueuedJob> {
  private readonly waiting: J[] = [];
  private readonly running = new Map<string, J>();
  private readonly known = new Set<string>();
  /** Actions waiting for their service's turn (ready once their first step is done), and the services one is running for. */
  private readonly actions: Array<{ readonly serviceId: string; ready: boolean; readonly start: () => void }> = [];
  private readonly acting = new Set<string>();
  /** Services whose running job has not started its work yet, waiting for actions asked before it. */
  private readonly yielding = new Set<string>();
  private paused = false;

  constructor(private readonly limit: number, private readonly run: (job: J) => Promise<void>) {}

  /** Queues a job; one already waiting or running is not queued twice. */
  add(job: J): void {
    if (this.known.has(job.deploymentId)) return;
    this.known.add(job.deploymentId);
    this.waiting.push(job);
    this.pump();
  }

  isRunning(deploymentId: string): boolean {
    return [...this.running.values()].some((job) => job.deploymentId === deploymentId);
  }

  /** Whether a job of the service waits, or one runs: its turn is not over. */
  hasJobsOf(serviceId: string): boolean {
    return this.running.has(serviceId) || this.waiting.some((job) => job.serviceId === serviceId);
  }

  /** Whether a job of the service waits for its turn. */
  hasWaiting(serviceId: string): boolean {
    return this.waiting.some((job) => job.serviceId === serviceId);
  }

  /**
   * Runs `work` in the service's turn: once the job of the service that runs has ended, ahead of
   * the ones that wait, which start only after it. The turn is taken at once, so no job of the
   * service starts from this call on; `first` runs meanwhile, without waiting for the turn (a stop
   * cancels the running deployment there), and `work` only after it. It takes no deployment slot:
   * an action does not wait behind other services' builds.
   */
  alone<T>(serviceId: string, work: () => Promise<T>, first: () => Promise<unknown> = async () => {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const action = {
        serviceId,
        ready: false,
        start: () => {
          this.acting.add(serviceId);
          void work().then(resolve, reject).finally(() => {
            this.acting.delete(serviceId);
            this.pump();
          });
        },
      };
      this.actions.push(action);
      void first().then(() => { action.ready = true; }, (error: unknown) => {
        this.actions.splice(this.actions.indexOf(action), 1);
        reject(error);
      }).finally(() => this.pump());
    });
  }

  /** Drops a job that waits (its deployment was cancelled before it ran): it will not take a slot. Answers the job dropped. */
  forget(deploymentId: string): J | null {
    const index = this.waiting.findIndex((job) => job.deploymentId === deploymentId);
    if (index < 0) return null;
    const [job] = this.waiting.splice(index, 1);
    this.known.delete(deploymentId);
    return job!;
  }

  /**
   * Lets the service's actions have their turn while its running job waits for `until` before it
   * starts its work: an action asked before the job's deployment, whose handler came after the job.
   */
  async yieldUntil(serviceId: string, until: () => Promise<void>): Promise<void> {
    this.yielding.add(serviceId);
    this.pump();
    try {
      await until();
    } finally {
      this.yielding.delete(serviceId);
    }
  }

  /** Starts nothing more; resolves once the running jobs have ended (a shutdown). */
  async pause(): Promise<void> {
    this.paused = true;
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private busy(serviceId: string): boolean {
    return this.running.has(serviceId) || this.acting.has(serviceId);
  }

  private busyForAction(serviceId: string): boolean {
    return (this.running.has(serviceId) && !this.yielding.has(serviceId)) || this.acting.has(serviceId);
  }

  private pump(): void {
    for (let i = 0; i < this.actions.length;) {
      const action = this.actions[i]!;
      // One at a time per service, in the order they came: a later one waits for an earlier one not ready yet.
      if (this.busyForAction(action.serviceId) || !action.ready || this.actions.slice(0, i).some((earlier) => earlier.serviceId === action.serviceId)) { i++; continue; }
      this.actions.splice(i, 1);
      action.start();
    }
    for (let i = 0; !this.paused && i < this.waiting.length && this.running.size < this.limit;) {
      const job = this.waiting[i]!;
      if (this.busy(job.serviceId) || this.actions.some((action) => action.serviceId === job.serviceId)) { i++; continue; }
      this.waiting.splice(i, 1);
      this.running.set(job.serviceId, job);
      void this.run(job).catch(() => {}).finally(() => {
        this.running.delete(job.serviceId);
        this.known.delete(job.deploymentId);
        this.pump();
      });
    }
  }
}
