// The orchestrator as database services need it: create or update a service from its spec, scale
// it, roll its tasks, remove it, and wait until a task runs. (To fold into the ContainerEngine
// port once that lands on main.)
import type { StackServiceSpec } from '../domain/compose/stack-spec.ts';

export interface DatabaseServices {
  exists(name: string): Promise<boolean>;
  /**
   * Creates the service or updates it to `spec`, rolling its tasks; answers the generation of the
   * tasks that run it (until they do, the previous tasks may still be running).
   */
  upsert(spec: StackServiceSpec): Promise<number>;
  /** Sets the replicas; false when there is no such service. */
  scale(name: string, replicas: number): Promise<boolean>;
  /** Restarts the tasks with the same spec: the new tasks' generation; null when there is no such service. */
  restart(name: string): Promise<number | null>;
  /** False when there was no such service. */
  remove(name: string): Promise<boolean>;
  /** The engine's words on why no task of the service (of that generation, when given) runs, or null when one runs. */
  notRunning(name: string, generation?: number): Promise<string | null>;
}
