// A compose file as the networks, volumes and services a stack deploy creates: every name in the
// `appName` namespace (`<appName>_<name>`), as the orchestrator's own stack tool does it, so
// services reach each other by their short names on the stack's networks.
import { isScalar, parseDocument, visit } from 'yaml';
import { badRequest } from '../../errors.ts';
import { composeFileProblem } from './compose-file.ts';
import { declaredObjects, type ReadComposeFile } from './stack-objects.ts';
import { unusedKeys } from './stack-options.ts';
import { serviceSpec, type ServiceContext } from './stack-service.ts';
import { COMPOSE_MARK } from '../ownership.ts';
import { NAMESPACE_LABEL, type StackNetworkSpec, type StackSpec, type VolumeOptions } from './stack-spec.ts';
import { asMap, envMap, interpolateAll, isMap, labelMap } from './values.ts';

export interface StackOptions {
  readonly appName: string;
  /** The compose service's id: every object of the stack carries it, Berth's mark that it made the object for it. */
  readonly composeId?: string;
  /** The service's env text: the file's ${VARIABLES}, and secrets `environment:` reads. */
  readonly env?: string | null;
  readonly publishMode?: 'ingress' | 'host';
  /** Reads the files the file names (env files, secret and config files) from its folder; without it, a file that names one cannot be deployed. */
  readonly read?: ReadComposeFile;
  /**
   * `save`: the file judged as it is saved, without its env (which may hold sealed secrets) or its
   * folder: a value that interpolates a variable (UNJUDGED), a secret or config read from the env,
   * and the content of a file it names are left to the deploy; `env` and `read` are not used.
   */
  readonly judging?: 'deploy' | 'save';
}

/** On save no file beside the compose file is read: any reads as empty, its content the deploy's to find. */
const ANY_FILE: ReadComposeFile = () => new Uint8Array();

const TOP_LEVEL = new Set(['version', 'name', 'services', 'networks', 'volumes', 'secrets', 'configs']);

/**
 * The parsed file, a file `mode: 0440` read as octal, as the orchestrator's stack tool reads it
 * (YAML 1.1): this parser (YAML 1.2) would read 440. `0o440` is octal in both; `440` is decimal.
 */
function parsedWithFileModes(text: string): unknown {
  const document = parseDocument(text, { merge: true });
  visit(document, {
    Pair(_, pair) {
      const { key, value } = pair;
      if (isScalar(key) && key.value === 'mode' && isScalar(value) && value.type === 'PLAIN' && /^0[0-7]+$/.test(value.source ?? '')) {
        value.value = parseInt(value.source!, 8);
      }
    },
  });
  return document.toJS();
}

export function stackSpec(text: string, options: StackOptions): StackSpec {
  const problem = composeFileProblem(text);
  if (problem) throw badRequest('composeFile', problem);
  if (text.trim() === '') throw badRequest('composeFile', 'is empty: there is nothing to deploy');
  const onSave = options.judging === 'save';
  const env = onSave ? null : envMap(options.env);
  const file = asMap(interpolateAll(parsedWithFileModes(text), env));
  const namespace = options.appName;
  const labels = { [NAMESPACE_LABEL]: namespace, ...(options.composeId !== undefined && { [COMPOSE_MARK]: options.composeId }) };
  const scoped = (name: string) => `${namespace}_${name}`;
  const declared = (key: string) => asMap(file[key]);

  const externalName = (entry: unknown, name: string) =>
    isMap(entry) && entry.external ? String(entry.name ?? name) : null;
  const networkNames = new Map<string, string>();
  const networks: StackNetworkSpec[] = [];
  for (const [name, entry] of Object.entries({ default: {}, ...declared('networks') })) {
    const external = externalName(entry, name);
    networkNames.set(name, external ?? scoped(name));
    if (external) continue;
    // Attachable unless the file says not: a one-off container (a debug shell, a migration) can join it.
    const driver = isMap(entry) && typeof entry.driver === 'string' ? entry.driver : 'overlay';
    networks.push({ Name: scoped(name), Driver: driver, Attachable: !(isMap(entry) && entry.attachable === false), Labels: labels });
  }
  const volumes = new Map<string, { name: string; options: VolumeOptions }>();
  for (const [name, entry] of Object.entries(declared('volumes'))) {
    const given = asMap(entry);
    const driver = typeof given.driver === 'string' ? given.driver : undefined;
    volumes.set(name, {
      name: externalName(entry, name) ?? scoped(name),
      options: {
        Labels: { ...labelMap(given.labels), ...labels },
        ...(driver !== undefined && { DriverConfig: { Name: driver, ...(given.driver_opts !== undefined && { Options: labelMap(given.driver_opts) }) } }),
      },
    });
  }

  const read = onSave ? ANY_FILE : options.read ?? null;
  const objects = { namespace, labels, env, read };
  const secrets = declaredObjects('secret', file.secrets, objects);
  const configs = declaredObjects('config', file.configs, objects);
  const context: ServiceContext = {
    namespace, labels, networkNames, volumes, publishMode: options.publishMode ?? 'ingress',
    read, secretNames: secrets.names, configNames: configs.names,
  };
  const services = Object.entries(declared('services')).map(([name, body]) => serviceSpec(name, body, context));
  if (services.length === 0) throw badRequest('composeFile', 'has no services');
  const ignored = [
    ...Object.keys(file).filter((key) => !TOP_LEVEL.has(key) && !key.startsWith('x-')),
    ...Object.entries(declared('services')).flatMap(([name, body]) => unusedKeys(asMap(body), `services.${name}`)),
    // A network of the stack's own is named in its namespace, whatever name the file asks for.
    ...Object.entries(declared('networks')).filter(([name, entry]) => isMap(entry) && entry.name !== undefined && !externalName(entry, name))
      .map(([name]) => `networks.${name}.name`),
  ];
  const used = new Set(services.flatMap((service) => service.TaskTemplate.Networks.map((network) => network.Target)));
  return {
    namespace,
    networks: networks.filter((network) => used.has(network.Name)),
    volumes: [...volumes.entries()].filter(([name]) => !externalName(declared('volumes')[name], name)).map(([, volume]) => volume.name),
    services,
    secrets: secrets.created,
    configs: configs.created,
    ignored,
  };
}
