// A compose service as the deployer runs it: read from its stream when its deployment starts; what
// its fetched file names (services, host ports) is reported on its stream, caused by the deployment's event.
import type { SecretBox } from '@berth/shared/crypto/secrets';
import { composeAggregate, type Compose } from '@berth/shared/domain/compose/compose';
import { envMap } from '@berth/shared/domain/compose/values';
import type { EventStore } from '@berth/shared/ports/event-store';
import { load } from '@berth/shared/runtime/execute';
import type { ComposeServices } from '../deployer/deployer.ts';
import { openedIn } from '../deployer/secrets.ts';
import type { Report } from '../runtime/report.ts';
import { DeploymentFailure } from '../deployer/env.ts';
import { hostPortsOf } from './host-ports.ts';
import type { RunComposeDeployment } from './work.ts';

/** Env values long enough to be a password or key (templates generate 32 characters): masked in the log. */
const MASKED_LENGTH = 8;

export const secretsOfCompose = (compose: Compose, box: SecretBox): string[] => [
  ...openedIn(compose, box),
  ...Object.values(envMap(compose.env)).filter((value) => value.length >= MASKED_LENGTH),
];

export function composeServices(eventStore: EventStore, box: SecretBox, run: RunComposeDeployment, report: Report): ComposeServices {
  const { recover } = run;
  return async (composeId, cause) => {
    const recorded = (await load(eventStore, composeAggregate, composeId)).state as Compose | null;
    // Its env opened once, here, for everything the work does with it: ${VARIABLES}, the compose
    // tool's environment, a stack's secrets, the log's masks. It is recorded sealed (it holds the
    // service's secrets); one recorded before that is in clear, and reveal leaves it as it is.
    const compose = recorded && { ...recorded, env: box.reveal(recorded.env) };
    const fileFetched = async ({ services, ports }: { services: string[]; ports: string[] }) => {
      const held = compose?.publishedPorts ?? [];
      const hostPorts = hostPortsOf(report, composeId, cause);
      await hostPorts.claim(held, ports);
      // Up: the file's ports are the service's. Failed: the previous version runs (a stack rolls
      // back), its ports stay the service's, and the ones claimed for this file go.
      return async (succeeded: boolean) => {
        const kept = succeeded ? ports : held;
        const { after } = await report(composeAggregate, composeId, { type: 'RecordFetchedFile', data: { composeId, services, ports: [...kept] } }, cause);
        if (after === null) {
          // Deleted meanwhile: what it held, and what was just claimed for it, is let go.
          await hostPorts.release([...new Set([...held, ...ports])]);
          if (succeeded) throw new DeploymentFailure('the service was deleted');
          return;
        }
        await hostPorts.release([...new Set([...held, ...ports])], kept);
      };
    };
    return compose && {
      appName: compose.appName,
      status: compose.composeStatus,
      secrets: secretsOfCompose(compose, box),
      run: (work) => run({ ...work, compose, fileFetched }),
      ...(recover && { recover: (deploymentId: string, log: (line: string) => void) => recover({ deploymentId, compose, log }) }),
    };
  };
}
