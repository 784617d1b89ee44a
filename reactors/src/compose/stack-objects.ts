// A stack's secrets and configs on the engine: created before its services roll out, each
// service's references given their ids, and the ones no service uses any more removed after.
import type { StackServiceSpec, StackSpec } from '@berth/shared/domain/compose/stack-spec';
import type { StackObjectKind } from '@berth/shared/ports/stack-engine';
import type { OwnerMark } from '@berth/shared/domain/ownership';
import { DeploymentFailure } from '../deployer/env.ts';
import type { ComposeDeps } from './deps.ts';

const OBJECT_KINDS: readonly StackObjectKind[] = ['secret', 'config'];
const referenced = (service: StackServiceSpec, kind: StackObjectKind): string[] => (kind === 'secret'
  ? (service.TaskTemplate.ContainerSpec.Secrets ?? []).map((reference) => reference.SecretName)
  : (service.TaskTemplate.ContainerSpec.Configs ?? []).map((reference) => reference.ConfigName));

/** Creates the stack's secrets and configs, and gives each service's references their ids on the engine. */
export async function withObjects(deps: ComposeDeps, spec: StackSpec, log: (line: string) => void): Promise<StackServiceSpec[]> {
  const ids = new Map<StackObjectKind, Map<string, string>>();
  for (const kind of OBJECT_KINDS) {
    const created = kind === 'secret' ? spec.secrets : spec.configs;
    await deps.stacks.ensureObjects(kind, created);
    if (created.length > 0) log(`${kind === 'secret' ? 'Secrets' : 'Configs'}: ${created.map((object) => object.Name).join(', ')}`);
    const names = [...new Set(spec.services.flatMap((service) => referenced(service, kind)))];
    const found = await deps.stacks.objectIds(kind, names);
    const missing = names.filter((name) => !found.has(name));
    if (missing.length > 0) throw new DeploymentFailure(`the ${kind} "${missing[0]}" is external and the engine has none by that name: create it first`);
    ids.set(kind, found);
  }
  const secretIds = ids.get('secret')!;
  const configIds = ids.get('config')!;
  return spec.services.map((service) => {
    const container = service.TaskTemplate.ContainerSpec;
    return {
      ...service,
      TaskTemplate: {
        ...service.TaskTemplate,
        ContainerSpec: {
          ...container,
          ...(container.Secrets && { Secrets: container.Secrets.map((reference) => ({ ...reference, SecretID: secretIds.get(reference.SecretName)! })) }),
          ...(container.Configs && { Configs: container.Configs.map((reference) => ({ ...reference, ConfigID: configIds.get(reference.ConfigName)! })) }),
        },
      },
    };
  });
}

/** The stack's secrets and configs no service of this deploy uses: earlier contents, or ones gone from the file. */
export async function pruneObjects(deps: ComposeDeps, spec: StackSpec, services: readonly StackServiceSpec[], log: (line: string) => void): Promise<void> {
  for (const kind of OBJECT_KINDS) {
    const used = new Set(services.flatMap((service) => referenced(service, kind)));
    for (const name of (await deps.stacks.objects(kind, spec.namespace)).filter((name) => !used.has(name))) {
      // One still held by a task on its way out stays, and goes with a later deploy or the stack's removal.
      await deps.stacks.removeObject(kind, name).then(() => log(`Removed the ${kind} ${name}: no service uses it any more`), () => undefined);
    }
  }
}

/** Every secret and config of the namespace (with `mark`, when given): its services are gone. One another stack still uses (shared through `name:`) stays. */
export async function removeObjects(deps: ComposeDeps, namespace: string, mark?: OwnerMark): Promise<void> {
  for (const kind of OBJECT_KINDS) {
    for (const name of await deps.stacks.objects(kind, namespace, mark)) await deps.stacks.removeObject(kind, name).catch(() => false);
  }
}

/**
 * After a failed or cancelled deploy, the secrets and configs no service `names` (the stack as it was
 * put back) uses: the new contents that deploy created, one more per failed deploy until one succeeds.
 * A failure here is logged: the deployment failed already, for its own reason.
 */
export async function pruneObjectsAfterFailure(deps: ComposeDeps, spec: StackSpec, names: readonly string[], log: (line: string) => void): Promise<void> {
  try {
    const current = await Promise.all(names.map((name) => deps.engine.inspectService(name)));
    const services = current.flatMap((info) => (info ? [info.spec as unknown as StackServiceSpec] : []));
    await pruneObjects(deps, spec, services, log);
  } catch (error) {
    log(`Could not remove the secrets and configs of this deployment: ${String(error)}`);
  }
}
