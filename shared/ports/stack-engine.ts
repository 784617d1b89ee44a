// The orchestrator as a compose stack needs it beyond single services: the stack's networks, and
// everything of one namespace found by the label the stack tool puts on it.
import type { StackNetworkSpec } from '../domain/compose/stack-spec.ts';

export interface StackEngine {
  /** Creates each network that does not exist yet (an existing one is left as it is). */
  ensureNetworks(networks: readonly StackNetworkSpec[]): Promise<void>;
  /** Names of the services labelled with the namespace. */
  services(namespace: string): Promise<string[]>;
  /** Names of the networks labelled with the namespace. */
  networks(namespace: string): Promise<string[]>;
  /** Names of the volumes labelled with the namespace. */
  volumes(namespace: string): Promise<string[]>;
  /** Containers (of any state) labelled with the namespace: a stack's are gone shortly after its services. */
  containers(namespace: string): Promise<number>;
  /** False when there was no such network. */
  removeNetwork(name: string): Promise<boolean>;
  /** False when there was no such volume. */
  removeVolume(name: string): Promise<boolean>;
}
