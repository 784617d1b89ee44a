// A stack's secrets and configs on dockerode: the engine's two kinds take the same calls.
import type Docker from 'dockerode';
import { NAMESPACE_LABEL, type StackObjectSpec } from '../../domain/compose/stack-spec.ts';
import type { OwnerMark } from '../../domain/ownership.ts';
import type { StackEngine, StackObjectKind } from '../../ports/stack-engine.ts';
import { foundBy, fromEngine, writtenByEngine } from './progress.ts';

/** What carries the namespace label (and the mark, when given: the engine ANDs the labels of one filter). */
export const labelled = (namespace: string, mark?: OwnerMark) =>
  ({ label: [`${NAMESPACE_LABEL}=${namespace}`, ...(mark ? [`${mark.label}=${mark.value}`] : [])] });

interface Listed { ID: string; Spec?: { Name?: string; Labels?: Record<string, string> } }

function calls(docker: Docker, kind: StackObjectKind) {
  return kind === 'secret'
    ? { list: (filters?: object) => docker.listSecrets({ filters }) as Promise<Listed[]>, create: (spec: StackObjectSpec) => docker.createSecret(spec), remove: (id: string) => docker.getSecret(id).remove() }
    : { list: (filters?: object) => docker.listConfigs({ filters }) as Promise<Listed[]>, create: (spec: StackObjectSpec) => docker.createConfig(spec), remove: (id: string) => docker.getConfig(id).remove() };
}

type ObjectCalls = Pick<StackEngine, 'ensureObjects' | 'objectIds' | 'objects' | 'removeObject'>;

export function dockerStackObjects(docker: Docker): ObjectCalls {
  const ids = async (kind: StackObjectKind) =>
    new Map((await fromEngine(() => calls(docker, kind).list())).map((object) => [object.Spec?.Name ?? '', object.ID]));
  return {
    async ensureObjects(kind, objects) {
      const held = await ids(kind);
      for (const object of objects.filter((o) => !held.has(o.Name))) await writtenByEngine(() => calls(docker, kind).create(object));
    },
    async objectIds(kind, names) {
      const held = await ids(kind);
      return new Map(names.flatMap((name) => (held.has(name) ? [[name, held.get(name)!] as const] : [])));
    },
    objects: async (kind, namespace, mark) =>
      (await fromEngine(() => calls(docker, kind).list(labelled(namespace, mark)))).map((object) => object.Spec?.Name ?? object.ID),
    async removeObject(kind, name) {
      const id = (await ids(kind)).get(name);
      return id !== undefined && foundBy(() => calls(docker, kind).remove(id));
    },
  };
}
