// The orchestrator as a compose stack needs it beyond single services: the stack's networks, and
// everything of one namespace found by the label the stack tool puts on it.
import type { StackNetworkSpec, StackObjectSpec } from '../domain/compose/stack-spec.ts';
import type { OwnerMark } from '../domain/ownership.ts';

/** Secrets and configs: the engine keeps each kind apart, with the same calls. */
export type StackObjectKind = 'secret' | 'config';

export interface StackEngine {
  /** Creates each network that does not exist yet (an existing one is left as it is). */
  ensureNetworks(networks: readonly StackNetworkSpec[]): Promise<void>;
  /** The network named exactly `name`: its id and labels; null when there is none. */
  network(name: string): Promise<{ readonly id: string; readonly labels: Record<string, string> } | null>;
  /** Names of the services labelled with the namespace. */
  services(namespace: string): Promise<string[]>;
  /** Names of the networks labelled with the namespace (and with `mark`, when given). */
  networks(namespace: string, mark?: OwnerMark): Promise<string[]>;
  /** Names of the volumes labelled with the namespace. */
  volumes(namespace: string): Promise<string[]>;
  /** Containers (of any state) labelled with the namespace: a stack's are gone shortly after its services. */
  containers(namespace: string): Promise<number>;
  /** False when there was no such network. */
  removeNetwork(name: string): Promise<boolean>;
  /** False when there was no such volume. */
  removeVolume(name: string): Promise<boolean>;
  /** Creates each object whose name the engine does not hold yet (a name ends with its content's digest: one held has that content). */
  ensureObjects(kind: StackObjectKind, objects: readonly StackObjectSpec[]): Promise<void>;
  /** The ids of the objects with these exact names; a name the engine does not hold is absent. */
  objectIds(kind: StackObjectKind, names: readonly string[]): Promise<Map<string, string>>;
  /** Names of the objects labelled with the namespace (and with `mark`, when given). */
  objects(kind: StackObjectKind, namespace: string, mark?: OwnerMark): Promise<string[]>;
  /** False when there was no such object; fails while a service uses it. */
  removeObject(kind: StackObjectKind, name: string): Promise<boolean>;
}
