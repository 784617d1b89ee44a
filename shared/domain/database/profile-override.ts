// An operator's changes to the engine profiles (BERTH_DATABASE_PROFILES, a JSON file): another
// image behind a kind's neutral name, and, when that image differs from the official one, its
// port, data path, environment and commands. Secrets reach the task only through its environment:
// `{databasePassword}` and the like are placeholders of environment values, never of commands.
import { Type, type Static, type TOptional } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ENGINES, type Engine } from '../../contract/databases.ts';
import type { EngineProfile, OpenCredentials } from './profile.ts';

const Command = Type.Array(Type.String(), { minItems: 1 });

const ProfileOverride = Type.Object({
  /** What the kind's neutral default image (for example `dbgamma:15`) runs. */
  image: Type.Optional(Type.String({ minLength: 1 })),
  internalPort: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  dataPath: Type.Optional(Type.String({ pattern: '^/' })),
  /** Variable → value; `{databaseName}`, `{databaseUser}`, `{databasePassword}`, `{databaseRootPassword}` are filled in. */
  environment: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Type.String())),
  args: Type.Optional(Type.Union([Command, Type.Null()])),
  ready: Type.Optional(Command),
  /** `{database}` is filled in with the database's name. */
  dump: Type.Optional(Command),
  restore: Type.Optional(Command),
  extension: Type.Optional(Type.String({ pattern: '^[a-z0-9]+$' })),
}, { additionalProperties: false });

export const ProfileOverrides = Type.Object(
  Object.fromEntries(ENGINES.map((engine) => [engine, Type.Optional(ProfileOverride)])) as Record<Engine, TOptional<typeof ProfileOverride>>,
  { additionalProperties: false },
);
export type ProfileOverrides = Static<typeof ProfileOverrides>;

/** The overrides in `text` (the file's content), or an error naming `source` and each fault. */
export function parseProfileOverrides(text: string, source: string): ProfileOverrides {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const faults = [...Value.Errors(ProfileOverrides, parsed)].map((fault) => `${fault.path || '/'} ${fault.message}`);
  if (faults.length > 0) throw new Error(`${source} is not a valid set of database profiles: ${faults.join('; ')}`);
  return parsed as ProfileOverrides;
}

const fill = (template: string, values: Readonly<Record<string, string | undefined>>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? values[name] ?? '' : whole));

/** `profile` with what the operator configured for its kind put over it. */
export function overridden(profile: EngineProfile, override: Static<typeof ProfileOverride> | undefined): EngineProfile {
  if (!override) return profile;
  const { environment, dump, restore, image: _image, ...plain } = override;
  return {
    ...profile,
    ...plain,
    ...(environment && {
      environment: (credentials: OpenCredentials) =>
        Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, fill(value, { ...credentials })])),
    }),
    ...(dump && { dump: (database: string) => dump.map((part) => fill(part, { database })) }),
    ...(restore && { restore: (database: string) => restore.map((part) => fill(part, { database })) }),
  };
}
