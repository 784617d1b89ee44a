// A deployment that ends while the next one of its service already waits does not move the
// service's status: it stays `running` until the last of them ends, rather than showing `done` (or
// `error`) for the moment between two (README, Deployments). Its end is held here until something
// takes it over: the next deployment, which starts from the status the held end would have left
// (a cancellation gives that back), or else an action, a cancelled wait or a shutdown, which report
// it first.
import type { Status } from '@berth/shared/contract/schema';
import { statusAfterDeployment, type DeploymentStep } from '@berth/shared/domain/application/status';
import type { Deployment } from '@berth/shared/domain/deployment/deployment';
import type { RecordedEvent } from '@berth/shared/events/event';

export interface HeldEnd {
  readonly deployment: Deployment;
  readonly step: Exclude<DeploymentStep, 'started'>;
  readonly cause: RecordedEvent | null;
}

export class HeldEnds {
  private readonly held = new Map<string, HeldEnd>();
  /** Held ends being reported now: a second asker waits for that report, not a second one. */
  private readonly reporting = new Map<string, Promise<void>>();

  constructor(private readonly report: (end: HeldEnd) => Promise<void>) {}

  hold(serviceId: string, end: HeldEnd): void {
    this.held.set(serviceId, end);
  }

  /** The status the service's held end would leave it in: where its next deployment starts from. */
  statusLeft(serviceId: string): Status | null {
    const end = this.held.get(serviceId);
    return end ? statusAfterDeployment(end.step, end.deployment.statusBefore) : null;
  }

  /** Taken over by the service's next deployment, now started: never reported. */
  drop(serviceId: string): void {
    this.held.delete(serviceId);
  }

  /** Reports the service's held end now, once however many ask; resolves once it is reported. */
  release(serviceId: string): Promise<void> {
    const end = this.held.get(serviceId);
    if (!end) return this.reporting.get(serviceId) ?? Promise.resolve();
    this.held.delete(serviceId);
    const reported = this.report(end).finally(() => {
      if (this.reporting.get(serviceId) === reported) this.reporting.delete(serviceId);
    });
    this.reporting.set(serviceId, reported);
    return reported;
  }

  /** Every held end reported (a shutdown: the deployments behind them start only after the next start). */
  async releaseAll(): Promise<void> {
    await Promise.allSettled([...this.held.keys()].map((serviceId) => this.release(serviceId)));
  }
}
