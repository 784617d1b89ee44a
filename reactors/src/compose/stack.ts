// `stack`: every service of the file as an orchestrator service in the appName namespace, with the
// stack's networks, as the stack tool does (--prune: a service gone from the file is removed).
// Each service rolls out and is watched like an application's; one whose tasks do not run fails the
// deployment with the engine's reason, and every service goes back to its previous spec.
import { readFileSync } from 'node:fs';
import { stackSpec } from '@berth/shared/domain/compose/stack';
import type { StackSpec } from '@berth/shared/domain/compose/stack-spec';
import type { Compose } from '@berth/shared/domain/compose/compose';
import { SERVICE_LABEL, type ServiceInfo, type ServiceSpec } from '@berth/shared/ports/container-engine';
import { until } from '../deployer/until.ts';
import { stopService } from '../deployer/stop-service.ts';
import { restore, rollOut } from '../deployer/rollout.ts';
import type { DeploymentResult } from '../deployer/work.ts';
import type { ComposeDeps } from './deps.ts';
import { readingTheFile } from './file-failure.ts';
import { registryAuths } from './registries.ts';
import { pruneObjects, pruneObjectsAfterFailure, removeObjects, withObjects } from './stack-objects.ts';
import { besideTheFile, type FetchedCompose } from './source.ts';
import type { ComposeWork } from './work.ts';
import { claimStack, composeMark, stackServices } from './stack-owner.ts';

/**
 * The spec of the fetched file. The files it names start from its own folder, as the compose tools
 * read them, and must be inside the repository (a link out of it is refused).
 */
function specOf(deps: ComposeDeps, compose: Compose, fetched: FetchedCompose): StackSpec {
  const read = (path: string) => {
    const found = besideTheFile(fetched, path);
    return found === null ? null : readFileSync(found);
  };
  return readingTheFile(() => stackSpec(fetched.text, {
    appName: compose.appName, composeId: compose.composeId, env: compose.env, publishMode: deps.settings.publishMode, read,
  }));
}

export async function deployStack(deps: ComposeDeps, work: ComposeWork, fetched: FetchedCompose): Promise<DeploymentResult> {
  const spec = specOf(deps, work.compose, fetched);
  if (spec.ignored.length > 0) work.log(`A stack does not use, so ignores: ${spec.ignored.join(', ')}`);
  // The networks and volumes Berth creates carry the compose's mark (the spec's labels); a network of
  // their names it did not make, or a volume it made for another service, fails the deploy here.
  await claimStack(deps, work.compose, spec.services.map((service) => service.Name), work.log, spec.networks.map((network) => network.Name), spec.volumes,
    spec.services.map((service) => service.TaskTemplate.ContainerSpec.Image));
  await deps.stacks.ensureNetworks(spec.networks);
  if (spec.networks.length > 0) work.log(`Networks: ${spec.networks.map((network) => network.Name).join(', ')}`);
  const services = await withObjects(deps, spec, work.log);
  const before = await Promise.all(services.map((service) => deps.engine.inspectService(service.Name)));
  // Services gone from the file go first, as the stack tool prunes them: a renamed one may publish
  // the host port its former self holds. A failed deployment brings them back.
  const gone = await removeGone(deps, work, new Set(services.map((service) => service.Name)));
  // The stack's services roll out together; the engine's stack spec shapes are its service specs.
  // An image in a registry Berth knows is pulled with its login.
  const authFor = await registryAuths(deps);
  const outcomes = await Promise.allSettled(services.map((service) =>
    rollOut(deps, service as unknown as ServiceSpec, authFor(service.TaskTemplate.ContainerSpec.Image), work)));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) {
    // The deployment fails (or was cancelled) as a whole: the services that did roll out go back
    // too, so the stack is the previous version, not half of each.
    await Promise.all(outcomes.map((outcome, i) => (outcome.status === 'fulfilled'
      ? restore(deps, before[i]!, services[i]!.Name, work.log).catch((error: unknown) => work.log(`Could not restore ${services[i]!.Name}: ${String(error)}`))
      : undefined)));
    for (const info of gone) {
      await deps.engine.upsertService(info.spec).then(
        () => work.log(`Brought back the service ${info.spec.Name}`),
        (error: unknown) => work.log(`Could not bring back ${info.spec.Name}: ${String(error)}`));
    }
    await pruneObjectsAfterFailure(deps, spec, [...services, ...gone.map((info) => info.spec)].map((service) => service.Name), work.log);
    throw failed.reason;
  }
  await pruneObjects(deps, spec, services, work.log);
  return { image: spec.services.map((service) => service.TaskTemplate.ContainerSpec.Image).join(' '), revision: fetched.revision };
}

/** Removes this compose's services that are not `wanted` any more; answers them as they were. */
async function removeGone(deps: ComposeDeps, work: ComposeWork, wanted: ReadonlySet<string>): Promise<ServiceInfo[]> {
  const removed: ServiceInfo[] = [];
  for (const name of (await stackServices(deps, work.compose)).own.filter((own) => !wanted.has(own))) {
    const info = await deps.engine.inspectService(name);
    if (!info || !(await deps.engine.removeService(name))) continue;
    removed.push(info);
    work.log(`Removed the service ${name}: it is not in the compose file any more`);
  }
  return removed;
}

/** Replicated services scaled to 0 (a global or job one has no scale: it is removed; a deploy brings it back). */
export async function stopStack(deps: ComposeDeps, compose: Compose): Promise<void> {
  const names = (await stackServices(deps, compose)).own;
  for (const name of names) {
    const info = await deps.engine.inspectService(name);
    if (info) await stopService(deps, info);
  }
  await until(deps, `the tasks of ${compose.appName} to stop`, async () => {
    for (const name of names) if ((await deps.engine.listTasks(name)).some((task) => task.state === 'running')) return false;
    return true;
  });
}

/**
 * Its services, then (once their containers are gone) networks, secrets and configs; named volumes
 * are kept, as the stack tool keeps them. Another's services of the namespace stay, and so do the
 * objects that lack this compose's mark (one made before the marks goes once no service is left).
 */
export async function removeStack(deps: ComposeDeps, compose: Compose): Promise<void> {
  const namespace = compose.appName;
  const { own, foreign } = await stackServices(deps, compose);
  for (const name of own) await deps.engine.removeService(name);
  await until(deps, `the containers of ${namespace} to go`, async () => {
    for (const name of own) if ((await deps.engine.listContainers({ label: `${SERVICE_LABEL}=${name}` })).length > 0) return false;
    return true;
  });
  const mark = foreign.length > 0 ? composeMark(compose) : undefined;
  // An overlay network is released a moment after the last container left it: tried until it goes.
  await until(deps, `the networks of ${namespace} to go`, async () => {
    for (const name of await deps.stacks.networks(namespace, mark)) await deps.stacks.removeNetwork(name).catch(() => false);
    return (await deps.stacks.networks(namespace, mark)).length === 0;
  });
  await removeObjects(deps, namespace, mark);
}
