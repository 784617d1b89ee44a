// An action (start, stop, reload) asked of a service before one of its deployments goes first.
// The bus may hand the deployment to the deployer before it hands the action to the service's
// runtime, so the deployment's job, before it starts its work, waits (bounded) for the outcome of
// every action asked before it. One asked long ago and never answered (a stopped process left it,
// taken up when the reactors start again) does not hold the service's deployments. A shutdown ends
// the wait at once: the deployment has not started, so it stays queued for the next start.
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { answersRequest, requestIdOf } from '@berth/shared/domain/service-kinds';
import { deploymentAggregate, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { streamName, type RecordedEvent } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';
import { setTimeout as sleep } from 'node:timers/promises';

/** How recent an unanswered action must be to be waited for, and how long a job waits at most. */
const ACTIONS_FIRST_MS = 30_000;
const POLL_MS = 100;

const serviceStreamOf = (deployment: Deployment): string => {
  if (deployment.applicationId) return streamName(applicationAggregate.name, deployment.applicationId);
  if (deployment.composeId) return streamName(composeAggregate.name, deployment.composeId);
  return streamName(databaseAggregates[deployment.databaseType!].name, deployment.databaseId!);
};

/** The actions asked in a service's history that no later event answers, in the order they were asked. */
export function unansweredRequests(events: readonly RecordedEvent[]): RecordedEvent[] {
  // The requests the stream's outcomes answer, gathered once: a service's stream can be long.
  const answered = new Set(events.filter((event) => answersRequest(event, requestIdOf(event))).map(requestIdOf));
  return events.filter((event) => event.type.endsWith('ActionRequested') && !answered.has(requestIdOf(event)));
}

/** Whether the service's stream holds a recent action asked before `position` and not answered yet. */
const unansweredBefore = (events: readonly RecordedEvent[], position: number, now: number): boolean =>
  unansweredRequests(events).some((asked) => asked.position < position && now - Date.parse(asked.metadata.occurredAt) < ACTIONS_FIRST_MS);

/** Resolves once the actions asked before the deployment are answered, the bound has passed, or `stop` aborts. */
export async function untilActionsBeforeAnswered(eventStore: EventStore, deployment: Deployment, stop: AbortSignal): Promise<void> {
  const queuedAt = (await eventStore.readStream(streamName(deploymentAggregate.name, deployment.deploymentId))).events[0]?.position ?? 0;
  const deadline = Date.now() + ACTIONS_FIRST_MS;
  while (!stop.aborted && Date.now() < deadline && unansweredBefore((await eventStore.readStream(serviceStreamOf(deployment))).events, queuedAt, Date.now())) {
    await sleep(POLL_MS, undefined, { signal: stop }).catch(() => {});
  }
}
