// The shapes a stack deploy creates on the orchestrator, in the engine API's own terms, so the
// engine adapter passes them through unchanged.
export interface StackMount {
  readonly Type: 'volume' | 'bind' | 'tmpfs';
  readonly Source?: string;
  readonly Target: string;
  readonly ReadOnly?: boolean;
  readonly VolumeOptions?: VolumeOptions;
}

/** How the engine makes a named volume on its first use: labels, and the driver the file names. */
export interface VolumeOptions {
  readonly Labels: Record<string, string>;
  readonly DriverConfig?: { readonly Name: string; readonly Options?: Record<string, string> };
  readonly NoCopy?: boolean;
}

export interface StackPort {
  readonly Protocol: 'tcp' | 'udp' | 'sctp';
  readonly TargetPort: number;
  readonly PublishedPort?: number;
  readonly PublishMode: 'ingress' | 'host';
}

/** A file a task sees: where, and whose. */
export interface StackFileTarget {
  readonly Name: string;
  readonly UID: string;
  readonly GID: string;
  readonly Mode: number;
}

/** How the orchestrator rolls a change out (or back). */
export interface RolloutConfig {
  readonly Parallelism?: number;
  readonly Delay?: number;
  readonly Monitor?: number;
  readonly MaxFailureRatio?: number;
  readonly Order?: 'stop-first' | 'start-first';
  readonly FailureAction?: 'pause' | 'continue' | 'rollback';
}

/** A secret or config a service mounts, by name; the deployer fills in its id on the engine. */
export interface StackSecretReference { readonly File: StackFileTarget; readonly SecretName: string; readonly SecretID?: string }
export interface StackConfigReference { readonly File: StackFileTarget; readonly ConfigName: string; readonly ConfigID?: string }

/**
 * A secret or config the stack creates. The engine cannot change one's content, so its name ends
 * with a digest of it: new content is a new object, which the services move to, and the old one
 * is removed once no service of the stack uses it.
 */
export interface StackObjectSpec {
  readonly Name: string;
  readonly Labels: Record<string, string>;
  /** The content, base64. */
  readonly Data: string;
}

export interface StackServiceSpec {
  readonly Name: string;
  readonly Labels: Record<string, string>;
  readonly TaskTemplate: {
    readonly ContainerSpec: {
      readonly Image: string;
      readonly Labels: Record<string, string>;
      readonly Command?: string[];
      readonly Args?: string[];
      readonly Env: string[];
      readonly Mounts: StackMount[];
      readonly Hostname?: string;
      readonly User?: string;
      readonly Dir?: string;
      readonly StopGracePeriod?: number;
      readonly Healthcheck?: { Test: string[]; Interval?: number; Timeout?: number; Retries?: number; StartPeriod?: number };
      readonly Secrets?: StackSecretReference[];
      readonly Configs?: StackConfigReference[];
      readonly Hosts?: string[];
      readonly DNSConfig?: { Nameservers?: string[]; Search?: string[]; Options?: string[] };
      readonly Init?: boolean;
      readonly ReadOnly?: boolean;
      readonly TTY?: boolean;
      readonly OpenStdin?: boolean;
      readonly StopSignal?: string;
      readonly CapabilityAdd?: string[];
      readonly CapabilityDrop?: string[];
      readonly Sysctls?: Record<string, string>;
      readonly Ulimits?: Array<{ Name: string; Soft: number; Hard: number }>;
    };
    readonly LogDriver?: { Name: string; Options?: Record<string, string> };
    readonly Resources?: { Limits?: { NanoCPUs?: number; MemoryBytes?: number }; Reservations?: { NanoCPUs?: number; MemoryBytes?: number } };
    readonly RestartPolicy?: { Condition?: 'none' | 'on-failure' | 'any'; Delay?: number; MaxAttempts?: number; Window?: number };
    readonly Placement?: { Constraints?: string[]; Preferences?: Array<{ Spread: { SpreadDescriptor: string } }>; MaxReplicas?: number };
    readonly Networks: Array<{ Target: string; Aliases: string[] }>;
  };
  readonly Mode: { Replicated: { Replicas: number } } | { Global: Record<string, never> };
  readonly UpdateConfig?: RolloutConfig;
  readonly RollbackConfig?: RolloutConfig;
  readonly EndpointSpec?: { Mode?: 'vip' | 'dnsrr'; Ports: StackPort[] };
}

export interface StackNetworkSpec {
  readonly Name: string;
  readonly Driver: string;
  readonly Attachable: boolean;
  readonly Labels: Record<string, string>;
}

/** Everything one stack deploy creates: networks first, then the services that use them. */
export interface StackSpec {
  readonly namespace: string;
  readonly networks: StackNetworkSpec[];
  /** Names of the named volumes the services mount (created by the engine on first use). */
  readonly volumes: string[];
  readonly services: StackServiceSpec[];
  /** The secrets and configs the stack creates (an external one is only referred to). */
  readonly secrets: StackObjectSpec[];
  readonly configs: StackObjectSpec[];
  /** Where the file says something a stack does not use (`services.web.build`), for the deployment's log. */
  readonly ignored: string[];
}

/** The label the orchestrator's own stack tool puts on everything of a stack. */
export const NAMESPACE_LABEL = 'com.docker.stack.namespace';
