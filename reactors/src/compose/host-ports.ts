// The host ports a compose service's file publishes, held in the log like a database's external
// port: the deploy that fetched the file claims the ones it did not hold yet (another service
// holding one fails the deployment, before anything is brought up), then lets go of the ones the
// file no longer publishes. A database or an application port asking for a held port is refused.
import type { RecordedEvent } from '@berth/shared/events/event';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import { DomainError } from '@berth/shared/errors';
import { DeploymentFailure } from '../deployer/env.ts';
import type { Report } from '../runtime/report.ts';

const keyOf = (port: string) => reservationKey('hostPort', port);

export interface HostPorts {
  /** Claims every port of `ports` not in `held`; on a refusal, lets go of the ones it took and fails naming the port. */
  claim(held: readonly string[], ports: readonly string[]): Promise<void>;
  /** Lets go of every port of `held` not in `kept`. */
  release(held: readonly string[], kept?: readonly string[]): Promise<void>;
}

export function hostPortsOf(report: Report, owner: string, cause: RecordedEvent | null): HostPorts {
  const release = async (held: readonly string[], kept: readonly string[] = []) => {
    for (const port of held.filter((port) => !kept.includes(port))) {
      await report(reservationAggregate, keyOf(port), { type: 'Release', data: { key: keyOf(port), owner } }, cause);
    }
  };
  return {
    async claim(held, ports) {
      const taken: string[] = [];
      for (const port of ports.filter((port) => !held.includes(port))) {
        try {
          await report(reservationAggregate, keyOf(port), { type: 'Reserve', data: { key: keyOf(port), owner, field: 'composeFile' } }, cause);
        } catch (error) {
          await release(taken);
          if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
          throw new DeploymentFailure(`the compose file publishes the host port ${port}, which another service holds (a database's external port, an application's port or another compose service's)`);
        }
        taken.push(port);
      }
    },
    release,
  };
}
