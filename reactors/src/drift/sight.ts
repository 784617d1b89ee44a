// What the engine shows of a service Berth deployed, from its spec as the engine answers it.
import type { EngineSight } from '@berth/shared/domain/application/engine-drift';
import type { ServiceSpec } from '@berth/shared/ports/container-engine';
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
