// What the engine shows of a service Berth deployed, from its spec as the engine answers it, or
// from the containers of a compose project.
import type { EngineSight } from '@berth/shared/domain/application/engine-drift';
import type { ContainerSummary, ServiceSpec } from '@berth/shared/ports/container-engine';
import { SERVICE_LABEL } from '../compose/built-images.ts';
import { RUNNING } from '../compose/project.ts';
import { modeKind } from '../deployer/service-spec.ts';

/** Missing, a replicated one scaled to 0, or one wanting its tasks (global and job modes have no count to lower). */
export function sightOf(spec: ServiceSpec | null): EngineSight {
  if (spec === null) return 'missing';
  const replicas = (spec.Mode as { Replicated?: { Replicas?: number } } | undefined)?.Replicated?.Replicas;
  return modeKind(spec) === 'Replicated' && replicas === 0 ? 'no-replicas' : 'replicas';
}

/** A stack's: changed when any of its services is (missing first, as the graver). */
export function stackSightOf(sights: readonly EngineSight[]): EngineSight {
  if (sights.includes('missing')) return 'missing';
  return sights.includes('no-replicas') ? 'no-replicas' : 'replicas';
}

/** A compose container as the sight judges it: its service, whether it runs, and, if not, whether it ended on its own. */
export interface SeenContainer {
  readonly labels: ContainerSummary['labels'];
  readonly state: ContainerSummary['state'];
  /** Stopped, with no restart policy to bring it back, after a clean exit: a one-off that did its work. */
  readonly finished?: boolean;
}

/** Whether a container that does not run ended on its own: no policy would restart it, and it exited 0 (a policy that would is undone only by hand). */
export function endedOnItsOwn(restartPolicy: string | undefined, exitCode: number | undefined): boolean {
  return !['always', 'unless-stopped'].includes(restartPolicy ?? '') && exitCode === 0;
}

/**
 * A compose project's, from its containers: missing with none; else each service they run (their
 * label) as a stack's services are, stopped when none of its containers runs (or restarts, by its
 * policy) and one did not end on its own. A service of the file with no container at all, or whose
 * containers all did their work and exited (a migration, an init step), counts for nothing: `up` may
 * leave one out (a profile, a scale of 0), so only the project's removal is `missing`.
 */
export function projectSightOf(containers: readonly SeenContainer[]): EngineSight {
  if (containers.length === 0) return 'missing';
  const services = new Set(containers.map((container) => container.labels[SERVICE_LABEL]));
  const sight = (service: string | undefined): EngineSight | null => {
    const its = containers.filter((container) => container.labels[SERVICE_LABEL] === service);
    if (its.some((container) => RUNNING.has(container.state))) return 'replicas';
    return its.every((container) => container.finished) ? null : 'no-replicas';
  };
  return stackSightOf([...services].map(sight).filter((seen) => seen !== null));
}
