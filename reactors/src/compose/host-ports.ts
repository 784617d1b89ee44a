// The host ports a compose service's file publishes, held in the log like a database's external
// port: the deploy that fetched the file claims the ones it did not hold yet (another service
// holding one fails the deployment, before anything is brought up), then lets go of the ones the
// file no longer publishes. A database or an application port asking for a held port is refused.
// An application's service holds the ports it publishes the same way (deployer/published-ports.ts).
import type { RecordedEvent } from '@berth/shared/events/event';
import { DomainError } from '@berth/shared/errors';
import { claimEach, claimEachFree, releaseEach, type RunReservation } from '@berth/shared/runtime/claims';
import { DeploymentFailure } from '../deployer/env.ts';
import type { Report } from '../runtime/report.ts';

export interface HostPorts {
  /** Claims every port of `ports` not in `held`; on a refusal, lets go of the ones it took and fails naming the port. */
  claim(held: readonly string[], ports: readonly string[]): Promise<void>;
  /** Lets go of every port of `held` not in `kept`. */
  release(held: readonly string[], kept?: readonly string[]): Promise<void>;
  /** Claims every port of `ports` that nobody holds (an application's service publishes them). */
  holdFree(ports: readonly string[]): Promise<void>;
}

const refusal = (port: string, error: unknown) => (error instanceof DomainError && error.code === 'CONFLICT'
  ? new DeploymentFailure(`the compose file publishes the host port ${port}, which another service holds (a database's external port, an application's port or another compose service's)`)
  : error);

export function hostPortsOf(report: Report, owner: string, cause: RecordedEvent | null): HostPorts {
  const run: RunReservation = (aggregate, key, command) => report(aggregate, key, command, cause);
  return {
    claim: (held, ports) => claimEach(run, 'hostPort', ports.filter((port) => !held.includes(port)), owner, 'composeFile', refusal),
    release: (held, kept = []) => releaseEach(run, 'hostPort', held.filter((port) => !kept.includes(port)), owner),
    holdFree: (ports) => claimEachFree(run, 'hostPort', ports, owner),
  };
}
