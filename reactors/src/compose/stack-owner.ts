// Which services of a stack's namespace are this compose service's. Since stacks carry Berth's mark,
// a service is its when it carries the compose's id; one made before that carries only the
// namespace, and is its when the deployment that wrote it (every rollout labels its service with
// its deployment) was this compose's. Anything else in the namespace is another's stack: a deploy
// fails without touching it, and stop and delete leave it alone.
import type { Compose } from '@berth/shared/domain/compose/compose';
import { DEPLOYMENT_LABEL } from '@berth/shared/domain/deployment/record';
import { carriesAMark, COMPOSE_MARK, foreignObjectReason, isMarked, isOwnedObject, markIn, othersImageReason, type OwnerMark } from '@berth/shared/domain/ownership';
import type { ServiceInfo } from '@berth/shared/ports/container-engine';
import { DeploymentFailure } from '../deployer/env.ts';
import type { ComposeDeps } from './deps.ts';

export const composeMark = (compose: Pick<Compose, 'composeId'>): OwnerMark => ({ label: COMPOSE_MARK, value: compose.composeId });

type Owner = 'own' | 'unmarked' | 'foreign';

async function ownerOf(deps: ComposeDeps, compose: Pick<Compose, 'composeId'>, info: ServiceInfo): Promise<Owner> {
  const labels = info.spec.Labels;
  if (isMarked(labels, composeMark(compose))) return 'own';
  if (markIn(labels) !== null) return 'foreign';
  const deploymentId = labels?.[DEPLOYMENT_LABEL];
  const wroteIt = deploymentId !== undefined && (await deps.records.deployment(deploymentId))?.composeId === compose.composeId;
  return wroteIt ? 'unmarked' : 'foreign';
}

export interface StackServices {
  /** This compose's, marked or made before the marks. */
  readonly own: readonly string[];
  /** This compose's, made before the marks. */
  readonly unmarked: readonly string[];
  readonly foreign: readonly string[];
  /** The networks (ids, or names) this compose's services are attached to. */
  readonly attached: ReadonlySet<string>;
}

/** The services of the namespace `compose.appName`, and of `names` too (a service named so outside it is no less in the way). */
export async function stackServices(deps: ComposeDeps, compose: Pick<Compose, 'appName' | 'composeId'>, names: readonly string[] = []): Promise<StackServices> {
  const found = { own: [] as string[], unmarked: [] as string[], foreign: [] as string[], attached: new Set<string>() };
  for (const name of new Set([...await deps.stacks.services(compose.appName), ...names])) {
    const info = await deps.engine.inspectService(name);
    if (!info) continue;
    const owner = await ownerOf(deps, compose, info);
    if (owner === 'foreign') {
      found.foreign.push(name);
      continue;
    }
    found.own.push(name);
    if (owner === 'unmarked') found.unmarked.push(name);
    for (const { Target } of (info.spec.TaskTemplate.Networks ?? []) as Array<{ Target?: string }>) if (Target) found.attached.add(Target);
  }
  return found;
}

/**
 * The first of the stack's networks the engine holds that is not this compose's: one without its
 * mark is its only when made before the marks, which its own services' being attached to it shows.
 */
async function foreignNetwork(deps: ComposeDeps, compose: Pick<Compose, 'composeId'>, networks: readonly string[], inUse: ReadonlySet<string>): Promise<string | null> {
  for (const name of networks) {
    const found = await deps.stacks.network(name);
    if (found && !isOwnedObject(found.labels, composeMark(compose), inUse.has(found.id) || inUse.has(name))) return name;
  }
  return null;
}

/**
 * The first of the stack's named `volumes` that Berth made for another service (it carries another
 * mark): a service removed keeps its data, which a stack of the same name must not mount. One with
 * no mark is an operator's (or made before the marks), which a compose file may name.
 */
async function othersVolume(deps: ComposeDeps, compose: Pick<Compose, 'composeId'>, volumes: readonly string[]): Promise<string | null> {
  for (const name of volumes) {
    const labels = await deps.engine.volumeLabels(name);
    if (labels !== null && carriesAMark(labels) && !isMarked(labels, composeMark(compose))) return name;
  }
  return null;
}

/** The first of the stack's `images` whose engine copy Berth built or keeps for another service, with why. */
async function othersImage(deps: ComposeDeps, compose: Pick<Compose, 'composeId'>, images: readonly string[]): Promise<string | null> {
  for (const image of new Set(images)) {
    const labels = await deps.engine.imageLabels(image);
    const others = labels === null ? null : othersImageReason(image, labels, compose.composeId, null);
    if (others !== null) return others;
  }
  return null;
}

/**
 * Before a deploy touches anything: a service of the stack, one of its `networks`, a named
 * volume Berth made for another service, or an image Berth built or keeps for another, that is not this compose's fails it; a service made before the marks gets the mark (its labels only: its
 * tasks do not roll), so the rollout may update it.
 */
export async function claimStack(
  deps: ComposeDeps, compose: Pick<Compose, 'appName' | 'composeId'>, names: readonly string[], log: (line: string) => void,
  networks: readonly string[] = [], volumes: readonly string[] = [], images: readonly string[] = [],
): Promise<void> {
  const { foreign, unmarked, attached } = await stackServices(deps, compose, names);
  if (foreign.length > 0) throw new DeploymentFailure(foreignObjectReason('stack', compose.appName));
  const network = await foreignNetwork(deps, compose, networks, attached);
  if (network !== null) throw new DeploymentFailure(foreignObjectReason('network', network));
  const volume = await othersVolume(deps, compose, volumes);
  if (volume !== null) throw new DeploymentFailure(foreignObjectReason('volume', volume));
  const image = await othersImage(deps, compose, images);
  if (image !== null) throw new DeploymentFailure(`the image ${image}`);
  const mark = composeMark(compose);
  for (const name of unmarked) {
    await deps.engine.updateService(name, (spec) => ({ ...spec, Labels: { ...spec.Labels, [mark.label]: mark.value } }));
    log(`Marked the service ${name}, deployed before Berth marked its stacks, as this service's`);
  }
}
