// The seam between the deployer's queue and a compose service's work, as work.ts is for applications.
import type { Compose } from '@berth/shared/domain/compose/compose';
import type { DeploymentKind, DeploymentResult } from '../deployer/work.ts';

export interface ComposeWork {
  readonly deploymentId: string;
  readonly kind: DeploymentKind;
  /** The compose service as the log says it is when the deployment starts: its env opened (services.ts), its other secrets still sealed. */
  readonly compose: Compose;
  readonly log: (line: string) => void;
  readonly signal: AbortSignal;
  /**
   * Claims the host ports the fetched file publishes (see host-ports.ts); answers how to settle
   * once the file is up or failed: the file's services and ports recorded (what `allServices`
   * answers for a git or forge source), the ports let go that the running version no longer publishes.
   */
  readonly fileFetched: (found: { services: string[]; ports: string[] }) => Promise<(succeeded: boolean) => Promise<void>>;
}

/** A deployment of the compose service that was running when Berth died (crash, kill). */
export interface InterruptedComposeWork {
  readonly deploymentId: string;
  /** As ComposeWork's. */
  readonly compose: Compose;
  readonly log: (line: string) => void;
}

export interface RunComposeDeployment {
  (work: ComposeWork): Promise<DeploymentResult>;
  /** On the restart after a crash: the stack's services put back as a failed deployment puts them back. */
  readonly recover?: (work: InterruptedComposeWork) => Promise<void>;
}

/** What stop and delete do on the engine; each resolves once the engine has done it. */
export interface ComposeActions {
  stop(compose: Compose): Promise<void>;
  /** Services, networks and containers of the stack or project removed (named volumes kept). */
  remove(compose: Compose): Promise<void>;
}
