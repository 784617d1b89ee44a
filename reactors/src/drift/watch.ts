// The engine watch: follows the engine's service events (updated, removed) and the container events
// of compose projects (started, exited, removed), and checks each service they name in its turn of
// the deployer's queue, after any deployment or action of Berth's in flight, so Berth's own scale to
// 0, stop, removal or update never reads as a change behind its back. One reconcile of every watched
// service at start and after each reconnect catches what changed while nothing watched; between,
// the event streams do the work, and a reconcile now and then (`recheckMs`) catches what an event
// stream that stalls without ending never said.
import { untilAny } from '@berth/shared/adapters/signal';
import type { ReadStore } from '@berth/shared/ports/read-store';
import type { ContainerEvents } from '@berth/shared/ports/container-events';
import type { ServiceEvents, ServiceEventStream } from '@berth/shared/ports/service-events';
import { reasonOf } from '../deployer/reason.ts';
import { checkService, type CheckDeps } from './check.ts';
import { appNameOfContainer } from './project-of-container.ts';
import { composeNamed, servicesNamed, servicesToReconcile, type WatchedService } from './watched.ts';

export interface EngineWatchDeps extends CheckDeps {
  readonly readStore: ReadStore;
  readonly events: ServiceEvents;
  readonly containerEvents: ContainerEvents;
  /** Runs `work` in the service's turn (the deployer's queue). */
  readonly inTurn: (serviceId: string, work: () => Promise<void>) => Promise<void>;
  /** How often every watched service is checked again while the streams are open. */
  readonly recheckMs: number;
}

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

export class EngineWatch {
  private stopped = false;
  private streams: ServiceEventStream[] = [];
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;
  /** Services whose check waits for its turn: it reads the engine then, so one more event adds nothing. */
  private readonly waiting = new Set<string>();

  constructor(private readonly deps: EngineWatchDeps) {}

  start(): void {
    this.running = this.follow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closeStreams();
    this.wake?.();
    // A check still waiting for its turn (behind a deployment) does nothing once its turn comes.
    await this.running;
  }

  private async follow(): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!this.stopped) {
      try {
        // Open first, then reconcile: a change during the reconcile is heard too.
        const streams = await this.openStreams();
        if (this.stopped) this.closeStreams();
        await this.reconcile();
        retryMs = FIRST_RETRY_MS;
        // Either ended: both are opened again, and a reconcile covers what neither heard between.
        // Until then, a reconcile every recheckMs: a stream can stall without ending.
        let ended = false;
        const either = Promise.race(streams.map((stream) => stream.ended)).then(() => { ended = true; });
        for (;;) {
          await untilAny([], { timeoutMs: this.deps.recheckMs, settled: either });
          if (ended) break;
          await this.reconcile();
        }
      } catch (error) {
        console.warn(`engine watch: the engine's events could not be followed (${reasonOf(error)}); trying again`);
        retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
      }
      this.closeStreams();
      if (!this.stopped) await new Promise<void>((resolve) => { this.wake = resolve; setTimeout(resolve, retryMs); });
    }
  }

  private async openStreams(): Promise<ServiceEventStream[]> {
    // Kept as each opens: one open when the other fails is closed too.
    this.streams = [await this.deps.events.open((name) => void this.changed(name))];
    this.streams.push(await this.deps.containerEvents.open((labels) => void this.containerChanged(labels)));
    return this.streams;
  }

  private closeStreams(): void {
    for (const stream of this.streams) stream.close();
  }

  private async reconcile(): Promise<void> {
    for (const service of await servicesToReconcile(this.deps.readStore)) this.check(service);
  }

  private async changed(serviceName: string): Promise<void> {
    try {
      for (const service of await servicesNamed(this.deps.readStore, serviceName)) this.check(service);
    } catch (error) {
      console.warn(`engine watch: the services named ${serviceName} could not be found (${reasonOf(error)})`);
    }
  }

  private async containerChanged(labels: Readonly<Record<string, string>>): Promise<void> {
    const appName = appNameOfContainer(labels, this.deps.settings.sourcesDir);
    if (appName === null) return;
    try {
      for (const service of await composeNamed(this.deps.readStore, appName)) this.check(service);
    } catch (error) {
      console.warn(`engine watch: the compose service ${appName} could not be found (${reasonOf(error)})`);
    }
  }

  private check(service: WatchedService): void {
    if (this.stopped || this.waiting.has(service.id)) return;
    this.waiting.add(service.id);
    void this.deps.inTurn(service.id, async () => {
      this.waiting.delete(service.id);
      if (!this.stopped) await checkService(this.deps, service);
    }).catch((error: unknown) => {
      this.waiting.delete(service.id);
      // The next event of the service, or the reconcile after a reconnect, checks it again.
      console.warn(`engine watch: ${service.aggregate.name} ${service.id} could not be checked (${reasonOf(error)})`);
    });
  }
}
