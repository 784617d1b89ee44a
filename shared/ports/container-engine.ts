// The container engine in swarm mode, as the reactors and the live views use it. Shapes follow the
// engine's own API (a service spec is what the orchestrator inspects), trimmed to what Berth sets.
import { foreignObjectReason, type EngineObjectKind } from '../domain/ownership.ts';

/** Credentials for one registry; `serveraddress` is the registry's host[:port]. */
export interface RegistryAuth {
  readonly username: string;
  readonly password: string;
  readonly serveraddress: string;
}

export interface PortBinding {
  readonly Protocol: 'tcp' | 'udp';
  readonly TargetPort: number;
  readonly PublishedPort: number;
  readonly PublishMode: 'ingress' | 'host';
}

/** The label the orchestrator puts on a task's container: its service's name. */
export const SERVICE_LABEL = 'com.docker.swarm.service.name';

/** A service spec as the orchestrator takes and answers it. */
export interface ServiceSpec {
  Name: string;
  Labels?: Record<string, string>;
  TaskTemplate: {
    ContainerSpec: {
      Image: string;
      Env?: string[];
      Command?: string[];
      Args?: string[];
      Labels?: Record<string, string>;
      Healthcheck?: object;
      Mounts?: Array<{ Type: 'volume' | 'bind'; Source: string; Target: string }>;
    };
    Resources?: { Limits?: Resources; Reservations?: Resources };
    RestartPolicy?: object;
    Placement?: object;
    Networks?: object[];
    /** Grows by one to roll the tasks when nothing else changed. */
    ForceUpdate?: number;
  };
  Mode?: object;
  UpdateConfig?: object;
  RollbackConfig?: object;
  EndpointSpec?: { Mode?: 'vip' | 'dnsrr'; Ports?: PortBinding[] };
}

export interface Resources {
  NanoCPUs?: number;
  MemoryBytes?: number;
}

export interface ServiceInfo {
  readonly id: string;
  readonly version: number;
  readonly spec: ServiceSpec;
  /** The spec before the last update, as the engine keeps it (none for a service never updated). */
  readonly previousSpec?: ServiceSpec;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type TaskState =
  | 'new' | 'allocated' | 'pending' | 'assigned' | 'accepted' | 'preparing' | 'ready' | 'starting'
  | 'running' | 'complete' | 'shutdown' | 'failed' | 'rejected' | 'remove' | 'orphaned';

export interface TaskInfo {
  readonly id: string;
  readonly state: TaskState;
  readonly desiredState: string;
  /** The engine's words on the state, and its error when there is one. */
  readonly message: string;
  readonly error: string | null;
  readonly image: string;
  /** ForceUpdate of the spec the task was created from: tells the tasks of one deploy apart. */
  readonly forceUpdate: number;
  readonly containerId: string | null;
  readonly createdAt: string;
}

export interface BuildRequest {
  /** Folder sent as the build context. */
  readonly contextDir: string;
  /** Path of the build file, relative to the context. */
  readonly containerfile: string;
  readonly tag: string;
  /** Labels the image carries (the owner's mark). */
  readonly labels?: Readonly<Record<string, string>>;
  /** One line of build output. */
  readonly onLine: (line: string) => void;
  /**
   * The id of the image each step left, as the builder reports it: one it made, or one of its cache
   * (never a FROM's base). The builder keeps them untagged: a failed build's are for the caller to remove.
   */
  readonly onStepImage?: (imageId: string) => void;
  readonly signal?: AbortSignal;
}

export interface NodeInfo {
  readonly id: string;
  readonly hostname: string;
  readonly role: 'worker' | 'manager';
  readonly availability: string;
  readonly state: string;
  readonly address: string;
  readonly leader: boolean;
  readonly engineVersion: string;
}

export interface JoinInfo {
  readonly workerToken: string;
  readonly managerToken: string;
  /** host:port of a manager, where a joining node connects. */
  readonly managerAddress: string;
}

export interface ContainerSummary {
  readonly containerId: string;
  readonly name: string;
  readonly image: string;
  readonly state: string;
  readonly status: string;
  readonly labels: Record<string, string>;
  readonly ports: string;
}

export interface ContainerStats {
  readonly cpuPercent: number;
  readonly memoryUsedBytes: number;
  readonly memoryLimitBytes: number;
  readonly networkRxBytes: number;
  readonly networkTxBytes: number;
  readonly blockReadBytes: number;
  readonly blockWriteBytes: number;
}

/** A network as the engine answers it, trimmed to what decides whether a service may join it. */
export interface NetworkInfo {
  readonly name: string;
  /** `overlay`, `bridge`, `host`, `null`, … */
  readonly driver: string;
  /** `swarm`: the cluster's, on every node that runs a task on it; `local`: one engine's own. */
  readonly scope: string;
  /** The engine's routing mesh (named `ingress` unless an operator made another). */
  readonly ingress: boolean;
  /** Whether a container run on its own (not a swarm task) may join it: a proxy run as a plain container. */
  readonly attachable: boolean;
  readonly labels: Readonly<Record<string, string>>;
}

/** Raised with the engine's own reason (a refused login, a build error, an unknown service). */
export class EngineError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
    this.name = 'EngineError';
  }
}

/** A deploy refused: the name is taken on the engine by an object Berth did not make for the service. */
export class ForeignObjectError extends EngineError {
  constructor(kind: EngineObjectKind, name: string) {
    super(foreignObjectReason(kind, name), 409);
    this.name = 'ForeignObjectError';
  }
}

export interface ContainerEngine {
  inspectService(name: string): Promise<ServiceInfo | null>;
  /**
   * Creates the service, or updates it with the whole spec at its current version; answers its id.
   * An existing service without the owner mark the spec carries is not touched: ForeignObjectError.
   */
  upsertService(spec: ServiceSpec, auth?: RegistryAuth): Promise<ServiceInfo>;
  /** Changes the spec of an existing service at its current version (replicas, ForceUpdate). */
  updateService(name: string, change: (spec: ServiceSpec) => ServiceSpec): Promise<ServiceInfo>;
  /** False when there was no such service. */
  removeService(name: string): Promise<boolean>;
  listTasks(serviceName: string): Promise<TaskInfo[]>;

  /**
   * Builds, pulls and pushes take as long as they need while the engine streams their progress; one
   * that goes silent while the engine does not answer a ping either fails as unavailable. `signal`
   * (a deployment's cancellation) ends it at once: the call throws the signal's reason (a cancelled
   * build first waits, briefly, for the engine to remove its step's container).
   */
  buildImage(request: BuildRequest): Promise<void>;
  pullImage(reference: string, auth?: RegistryAuth, onLine?: (line: string) => void, signal?: AbortSignal): Promise<void>;
  pushImage(reference: string, auth: RegistryAuth, onLine?: (line: string) => void, signal?: AbortSignal): Promise<void>;
  tagImage(source: string, target: string): Promise<void>;
  imageExists(reference: string): Promise<boolean>;
  /** Every tag of the repository `name` (without a tag), as `name:tag`. */
  imageTags(name: string): Promise<string[]>;
  /** Every tag (`repository:tag`) of the images carrying `label` (`key=value`), whatever their repository; an untagged image has none. */
  labelledImageTags(label: string): Promise<string[]>;
  removeImage(reference: string): Promise<void>;
  /**
   * Removes the image `imageId` unless anything uses it: without force, so the engine refuses one an
   * image is built on or a container runs from; one with a tag or digest stays too. Its parents stay,
   * unless `withParents`: then its untagged parents nothing else uses go too (a build's steps).
   * True when it was removed; false when it is in use or gone.
   */
  removeUnusedImage(imageId: string, options?: { withParents?: boolean }): Promise<boolean>;
  /** The labels of the image's configuration; null when there is no such image. */
  imageLabels(reference: string): Promise<Record<string, string> | null>;
  /** Logs in to the registry; throws EngineError with the registry's reason when it refuses. */
  checkAuth(auth: RegistryAuth): Promise<void>;

  listNodes(): Promise<NodeInfo[]>;
  joinInfo(): Promise<JoinInfo>;
  drainNode(nodeId: string): Promise<void>;
  removeNode(nodeId: string): Promise<void>;

  listContainers(filter?: { label?: string; name?: string }): Promise<ContainerSummary[]>;
  inspectContainer(containerId: string): Promise<object | null>;
  containerStats(containerId: string): Promise<ContainerStats>;
  /** Stops the container with its own stop signal and grace period; true if it was stopped already, false when there was no such container. */
  stopContainer(containerId: string): Promise<boolean>;
  /** Removes the container, killing it if it still runs; its volumes are kept. False when there was no such container. */
  removeContainer(containerId: string): Promise<boolean>;

  /** The labels of the volume named exactly `name`; null when there is none. */
  volumeLabels(name: string): Promise<Record<string, string> | null>;
  /** Creates the named volume with `labels` (the engine cannot add labels to a volume later). */
  createVolume(name: string, labels: Readonly<Record<string, string>>): Promise<void>;
  /** False when there was no such volume; fails while a container uses it. */
  removeVolume(name: string): Promise<boolean>;

  /** The network named exactly `name` (the engine also takes an id, or a prefix of one: not here); null when there is none. */
  network(name: string): Promise<NetworkInfo | null>;
  /**
   * Creates an attachable swarm overlay network named `name` carrying `labels`. False when the
   * engine already holds a network of that name (made meanwhile by another caller, say): what it
   * is then is for the caller to inspect.
   */
  createOverlayNetwork(name: string, labels: Readonly<Record<string, string>>): Promise<boolean>;
  /** Names of the networks carrying `label` (`key=value`). */
  listNetworks(filter: { label: string }): Promise<string[]>;
  /** False when there was no such network. */
  removeNetwork(name: string): Promise<boolean>;
}
