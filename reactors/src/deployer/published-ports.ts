// The host ports an application's service publishes, recorded once a rollout succeeded (see
// Application.publishedPorts): a port changed or removed since the rollout before was handed to the
// application while the engine still published it, and is let go now that it no longer does. One
// that nobody holds (its port let go of while this rollout ran) is held again, the engine publishing it.
import { applicationAggregate, type Application } from '@berth/shared/domain/application/application';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { hostPortsOf } from '../compose/host-ports.ts';
import type { Report } from '../runtime/report.ts';

export async function recordPublishedPorts(
  report: Report, readStore: ReadStore, applicationId: string, deploymentId: string, publishedPorts: readonly string[], cause: RecordedEvent | null,
): Promise<void> {
  const { before } = await report<Application>(applicationAggregate, applicationId, {
    type: 'RecordPublishedPorts', data: { applicationId, deploymentId, publishedPorts: [...publishedPorts] },
  }, cause);
  if (!before) return; // deleted while it deployed: its removal lets go of what it held
  const held = hostPortsOf(report, applicationId, cause);
  await held.holdFree(publishedPorts);
  // What the rollout before published, and any host port a crash or a late hand-over left the application holding.
  const prefix = reservationKey('hostPort', '');
  const owned = (await readStore.find(reservationAggregate.name, 'owner', applicationId))
    .map((doc) => String(doc.key)).filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
  await held.release([...new Set([...(before.publishedPorts ?? []), ...owned])], publishedPorts);
}
