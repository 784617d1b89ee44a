// The seam between the deployment queue (which decides what runs when, records it and can
// cancel it) and the work itself (fetch the source, build, push, roll the service, watch tasks).
// The queue hands a DeploymentWork to a RunDeployment; the work writes its log through `log`,
// stops promptly when `signal` aborts, and resolves with what it deployed or throws a reason.
import type { Application } from '@berth/shared/domain/application/record';

export type DeploymentKind = 'deploy' | 'redeploy' | 'rollback';

export interface DeploymentWork {
  readonly deploymentId: string;
  readonly kind: DeploymentKind;
  /** The application as the log says it is when the deployment starts (secrets still sealed). */
  readonly application: Application;
  /** For a rollback: the image an earlier successful deployment produced; nothing is built. */
  readonly image: string | null;
  /** One line of the deployment log; never pass a secret. */
  readonly log: (line: string) => void;
  /** Aborted by `deployment.cancel` or shutdown: stop, leave the service on its previous version. */
  readonly signal: AbortSignal;
}

export interface DeploymentResult {
  /** The image the service now runs, kept under a per-deployment tag so a rollback can reuse it. */
  readonly image: string;
  /** The source revision deployed (a commit id), when the source has one. */
  readonly revision: string | null;
  /** An application's: the host ports (`<port>/<protocol>`) its service now publishes. */
  readonly publishedPorts?: readonly string[];
}

/** A deployment of the application that was running when Berth died (crash, kill). */
export interface InterruptedWork {
  readonly deploymentId: string;
  readonly application: Application;
  readonly log: (line: string) => void;
}

export interface RunDeployment {
  (work: DeploymentWork): Promise<DeploymentResult>;
  /**
   * On the restart after a crash: what the interrupted deployment left on the engine put back as a
   * failed or cancelled one puts it back. Left out by work that leaves nothing behind (a test's).
   */
  readonly recover?: (work: InterruptedWork) => Promise<void>;
}

/** What the service actions do on the engine; each resolves once the engine has done it. */
export interface ServiceActions {
  start(application: Application): Promise<void>;
  stop(application: Application): Promise<void>;
  reload(application: Application): Promise<void>;
  /** Service, its images, its proxy file and its logs removed. */
  remove(application: Application): Promise<void>;
  /** Whether the engine holds its service (see RuntimeActions). */
  isOnEngine?(application: Application): Promise<boolean>;
  /** Removes the images of pruned deployments, except one the service runs now. */
  pruneImages(service: Pick<Application, 'appName'>, images: readonly string[]): Promise<void>;
}
