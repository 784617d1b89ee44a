// Which deployment runs when: those of one service one at a time, in the order they were queued;
// different services at once, up to a limit. It only orders jobs; running one is `run`'s business.

export interface QueuedJob {
  readonly deploymentId: string;
  readonly serviceId: string;
}

export class DeploymentQueue<J extends QueuedJob> {
  private readonly waiting: J[] = [];
  private readonly running = new Map<string, J>();
  private readonly known = new Set<string>();
  private readonly idle: Array<{ serviceId: string | null; resolve: () => void }> = [];
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

  /** Resolves once no job of the service (of any service, when null) waits or runs. */
  whenIdle(serviceId: string | null = null): Promise<void> {
    if (this.settled(serviceId)) return Promise.resolve();
    return new Promise((resolve) => this.idle.push({ serviceId, resolve }));
  }

  /**
   * Drops a job that waits (its deployment was cancelled before it ran): what waits for its service
   * to be idle (a removal) does not wait for it to reach a slot behind other services' work.
   */
  forget(deploymentId: string): void {
    const index = this.waiting.findIndex((job) => job.deploymentId === deploymentId);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    this.known.delete(deploymentId);
    this.wakeIdle();
  }

  /** Starts nothing more; resolves once the running jobs have ended (a shutdown). */
  async pause(): Promise<void> {
    this.paused = true;
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private settled(serviceId: string | null): boolean {
    const mine = (job: J) => serviceId === null || job.serviceId === serviceId;
    return !this.waiting.some(mine) && ![...this.running.values()].some(mine);
  }

  private pump(): void {
    for (let i = 0; !this.paused && i < this.waiting.length && this.running.size < this.limit;) {
      const job = this.waiting[i]!;
      if (this.running.has(job.serviceId)) { i++; continue; }
      this.waiting.splice(i, 1);
      this.running.set(job.serviceId, job);
      void this.run(job).catch(() => {}).finally(() => {
        this.running.delete(job.serviceId);
        this.known.delete(job.deploymentId);
        this.pump();
        this.wakeIdle();
      });
    }
  }

  private wakeIdle(): void {
    for (const waiter of this.idle.filter((w) => this.settled(w.serviceId))) {
      this.idle.splice(this.idle.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
