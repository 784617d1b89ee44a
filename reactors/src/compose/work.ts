// The seam between the deployer's queue and a compose service's work, as work.ts is for applications.
import type { Compose } from '@berth/shared/domain/compose/compose';
import type { DeploymentKind, DeploymentResult } from '../deployer/work.ts';

export interface ComposeWork {
  readonly deploymentId: string;
  readonly kind: DeploymentKind;
  /** The compose service as the log says it is when the deployment starts (secrets still sealed). */
  readonly compose: Compose;
  readonly log: (line: string) => void;
  readonly signal: AbortSignal;
  /**
   * Records what the fetched file names: its services (what `allServices` answers for a git or forge
   * source) and the host ports it publishes, which it claims first (see host-ports.ts).
   */
  readonly fileFetched: (found: { services: string[]; ports: string[] }) => Promise<void>;
}

export type RunComposeDeployment = (work: ComposeWork) => Promise<DeploymentResult>;

/** What stop and delete do on the engine; each resolves once the engine has done it. */
export interface ComposeActions {
  stop(compose: Compose): Promise<void>;
  /** Services, networks and containers of the stack or project removed (named volumes kept). */
  remove(compose: Compose): Promise<void>;
}
