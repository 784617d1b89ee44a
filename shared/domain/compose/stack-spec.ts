// The shapes a stack deploy creates on the orchestrator, in the engine API's own terms, so the
// engine adapter passes them through unchanged.
export interface StackMount {
  readonly Type: 'volume' | 'bind' | 'tmpfs';
  readonly Source?: string;
  readonly Target: string;
  readonly ReadOnly?: boolean;
  readonly VolumeOptions?: { readonly Labels: Record<string, string> };
}

export interface StackPort {
  readonly Protocol: 'tcp' | 'udp';
  readonly TargetPort: number;
  readonly PublishedPort?: number;
  readonly PublishMode: 'ingress' | 'host';
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
    };
    readonly Resources?: { Limits?: { NanoCPUs?: number; MemoryBytes?: number }; Reservations?: { NanoCPUs?: number; MemoryBytes?: number } };
    readonly RestartPolicy?: { Condition?: 'none' | 'on-failure' | 'any'; Delay?: number; MaxAttempts?: number; Window?: number };
    readonly Placement?: { Constraints: string[] };
    readonly Networks: Array<{ Target: string; Aliases: string[] }>;
  };
  readonly Mode: { Replicated: { Replicas: number } } | { Global: Record<string, never> };
  readonly UpdateConfig?: { Parallelism?: number; Delay?: number; Order?: 'stop-first' | 'start-first'; FailureAction?: 'pause' | 'continue' | 'rollback' };
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
}

/** The label the orchestrator's own stack tool puts on everything of a stack. */
export const NAMESPACE_LABEL = 'com.docker.stack.namespace';
