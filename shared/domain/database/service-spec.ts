// A database as an orchestrator service: its engine's image and environment contract, the
// `<appName>-data` volume at the engine's data path, the internal port published on the host
// when `externalPort` is set, resources, and the user's own command and extra environment.
import type { Engine } from '../../contract/databases.ts';
import type { StackServiceSpec } from '../compose/stack-spec.ts';
import { envMap, words } from '../compose/values.ts';
import { DATABASE_MARK, LEGACY_DATABASE_LABEL, type OwnerMark } from '../ownership.ts';
import { idFieldOf, type DatabaseFields, type DatabaseKey } from './database.ts';
import type { EngineProfile, OpenCredentials } from './profile.ts';

/** The database's own mark, and the engine's kind that services made before the mark carry alone. */
export const databaseMark = (engine: Engine, database: DatabaseKey): OwnerMark => ({
  label: DATABASE_MARK, value: database[idFieldOf(engine)] ?? '', legacy: { label: LEGACY_DATABASE_LABEL, value: engine },
});

/** The volume a database keeps its data in; it outlives the service unless removed on purpose. */
export const dataVolumeOf = (appName: string) => `${appName}-data`;

type Fields = DatabaseKey & Pick<DatabaseFields, 'appName' | 'command' | 'env' | 'externalPort' | 'memoryLimit' | 'memoryReservation' | 'cpuLimit' | 'cpuReservation'>;

/** Bytes and nano-CPUs, the orchestrator's units, as the reference stores them (as applications do). */
const resources = (memory: number | null, cpus: number | null) => ({
  ...(memory !== null && { MemoryBytes: Math.round(memory) }),
  ...(cpus !== null && { NanoCPUs: Math.round(cpus) }),
});

export function databaseServiceSpec(engine: Engine, database: Fields, credentials: OpenCredentials, profile: EngineProfile, replicas = 1): StackServiceSpec {
  // The user's env adds to the engine's contract and may override it (a tuning variable, say).
  const env = { ...profile.environment(credentials), ...envMap(database.env) };
  const mark = databaseMark(engine, database);
  // A blank command is none: the server keeps the profile's arguments.
  const command = words(database.command ?? '');
  const labels = { [LEGACY_DATABASE_LABEL]: engine, [mark.label]: mark.value };
  return {
    Name: database.appName,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: profile.image,
        Labels: labels,
        ...(command.length > 0 ? { Args: [...command, ...profile.commandArgs?.(credentials) ?? []] } : profile.args && { Args: [...profile.args] }),
        Env: Object.entries(env).map(([key, value]) => `${key}=${value}`),
        Mounts: [{ Type: 'volume', Source: dataVolumeOf(database.appName), Target: profile.dataPath }],
        // Engines flush on TERM; give them time to do it.
        StopGracePeriod: 30e9,
      },
      Resources: {
        Limits: resources(database.memoryLimit, database.cpuLimit),
        Reservations: resources(database.memoryReservation, database.cpuReservation),
      },
      RestartPolicy: { Condition: 'any', Delay: 5e9 },
      Networks: [],
    },
    Mode: { Replicated: { Replicas: replicas } },
    ...(database.externalPort !== null && {
      EndpointSpec: { Ports: [{ Protocol: 'tcp', TargetPort: profile.internalPort, PublishedPort: database.externalPort, PublishMode: 'host' }] },
    }),
  };
}
