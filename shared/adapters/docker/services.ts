// Swarm services and their tasks. An update sends the whole spec at the version it was read at.
import type Docker from 'dockerode';
import {
  ForeignObjectError, type RegistryAuth, type ServiceInfo, type ServiceSpec, type TaskInfo, type TaskState,
} from '../../ports/container-engine.ts';
import { isMarked, markIn } from '../../domain/ownership.ts';
import { answered, engineError, foundBy, isNotFound } from './progress.ts';
import { pathName } from './names.ts';

// dockerode sends X-Registry-Auth for any auth object it is given, `{}` too (as `e30=`), and the
// engine replaces a service's stored pull credentials with whatever a non-empty header holds: with
// no credentials, dockerode gets undefined, so no header goes and the stored ones stay.
const registryAuth = (auth?: RegistryAuth) => auth as Docker.AuthConfig;

type Inspected = { ID: string; Version: { Index: number }; Spec: ServiceSpec; PreviousSpec?: ServiceSpec; CreatedAt: string; UpdatedAt: string };

const infoOf = (raw: Inspected): ServiceInfo => ({
  id: raw.ID, version: raw.Version.Index, spec: raw.Spec, ...(raw.PreviousSpec && { previousSpec: raw.PreviousSpec }),
  createdAt: raw.CreatedAt, updatedAt: raw.UpdatedAt,
});

/** The service the engine finds for `nameOrId`: by its id, its name, or a prefix of its id. */
async function found(docker: Docker, nameOrId: string): Promise<ServiceInfo | null> {
  try {
    return infoOf(await answered((abortSignal) => docker.getService(pathName('service', nameOrId)).inspect({ abortSignal })) as Inspected);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw engineError(error);
  }
}

/**
 * The service named exactly `name`. The engine also resolves a service's id, or a prefix of it, in
 * place of a name: a runtime name that happens to be (a prefix of) another service's id would act
 * on that service, which may be another project's.
 */
export async function inspectService(docker: Docker, name: string): Promise<ServiceInfo | null> {
  const info = await found(docker, name);
  return info && info.spec.Name === name ? info : null;
}

const notFound = (name: string) => engineError({ statusCode: 404, message: `service ${name} not found` });

async function mustInspect(docker: Docker, name: string): Promise<ServiceInfo> {
  const info = await inspectService(docker, name);
  if (!info) throw notFound(name);
  return info;
}

/** A service by the id the engine gave it (after a create or an update). */
async function byId(docker: Docker, id: string): Promise<ServiceInfo> {
  const info = await found(docker, id);
  if (!info || info.id !== id) throw notFound(id);
  return info;
}

/** Writes `spec` over the service at the version read (the engine refuses a stale one). */
async function write(docker: Docker, current: ServiceInfo, spec: ServiceSpec, auth?: RegistryAuth): Promise<ServiceInfo> {
  try {
    await docker.getService(current.id).update(registryAuth(auth), { version: current.version, ...spec } as never);
  } catch (error) {
    throw engineError(error);
  }
  return byId(docker, current.id);
}

export async function upsertService(docker: Docker, spec: ServiceSpec, auth?: RegistryAuth): Promise<ServiceInfo> {
  const current = await inspectService(docker, spec.Name);
  // Decided here, for every caller: a spec of a Berth service never goes over another's service.
  const mark = markIn(spec.Labels);
  if (current && mark && !isMarked(current.spec.Labels, mark)) throw new ForeignObjectError('swarm service', spec.Name);
  if (!current) {
    try {
      const created = await docker.createService(registryAuth(auth), spec as never);
      return byId(docker, created.id);
    } catch (error) {
      throw engineError(error);
    }
  }
  // Every deploy rolls the tasks, also when the spec did not change.
  const forceUpdate = (current.spec.TaskTemplate.ForceUpdate ?? 0) + 1;
  return write(docker, current, { ...spec, TaskTemplate: { ...spec.TaskTemplate, ForceUpdate: forceUpdate } }, auth);
}

export async function updateService(docker: Docker, name: string, change: (spec: ServiceSpec) => ServiceSpec): Promise<ServiceInfo> {
  const current = await mustInspect(docker, name);
  return write(docker, current, change(current.spec));
}

export async function removeService(docker: Docker, name: string): Promise<boolean> {
  const info = await inspectService(docker, name);
  return info !== null && foundBy(() => docker.getService(info.id).remove());
}

type RawTask = {
  ID: string; CreatedAt: string; DesiredState: string;
  Spec: { ContainerSpec?: { Image?: string }; ForceUpdate?: number };
  Status: { State: TaskState; Message?: string; Err?: string; ContainerStatus?: { ContainerID?: string } };
};

export async function listTasks(docker: Docker, serviceName: string): Promise<TaskInfo[]> {
  // The engine's filter resolves ids and their prefixes too: filtered by the exact service's id.
  const service = await inspectService(docker, serviceName);
  if (!service) return [];
  try {
    const tasks = await answered((abortSignal) => docker.listTasks({ filters: { service: [service.id] }, abortSignal })) as RawTask[];
    return tasks.map((task) => ({
      id: task.ID,
      state: task.Status.State,
      desiredState: task.DesiredState,
      message: task.Status.Message ?? '',
      error: task.Status.Err ?? null,
      image: task.Spec.ContainerSpec?.Image ?? '',
      forceUpdate: task.Spec.ForceUpdate ?? 0,
      containerId: task.Status.ContainerStatus?.ContainerID ?? null,
      createdAt: task.CreatedAt,
    }));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw engineError(error);
  }
}
