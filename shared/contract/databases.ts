import { Type, type TProperties } from '@sinclair/typebox';
import { group, get, post } from './operation.ts';
import { BackupRecord, databaseFields } from './records.ts';
import { ENGINES, type Engine } from './engines.ts';
import { resourceFields } from './orchestrator.ts';
import { Closed, CreatedAt, MinStr, Nullable, Opt, OptNull, Port, Status, Str } from './schema.ts';

export { ENGINES, type Engine };

export const DEFAULT_IMAGES: Record<Engine, string> = {
  dbalpha: 'dbalpha:6', dbbeta: 'dbbeta:8', dbgamma: 'dbgamma:15', dbdelta: 'dbdelta:15', dbepsilon: 'dbepsilon:8',
};

/** The engine-specific credential fields and whether each is bounded (min 1). */
const EXTRAS: Record<Engine, Record<string, boolean>> = {
  dbalpha: { databaseName: true, databaseUser: true, databasePassword: false, databaseRootPassword: false },
  dbbeta: { databaseName: true, databaseUser: true, databasePassword: false, databaseRootPassword: false },
  dbgamma: { databaseName: true, databaseUser: true, databasePassword: false },
  dbdelta: { databaseUser: true, databasePassword: false },
  dbepsilon: { databasePassword: false },
};

export const credentialFields = (engine: Engine): string[] => Object.keys(EXTRAS[engine]);

function engineGroup<E extends Engine>(engine: E) {
  const idField = `${engine}Id` as const;
  const appName = engine === 'dbgamma' ? Str() : MinStr();
  const extras = (optional: boolean): TProperties => Object.fromEntries(
    Object.entries(EXTRAS[engine]).map(([field, bounded]) => {
      const schema = bounded ? MinStr() : Str();
      return [field, optional ? Opt(schema) : schema];
    }),
  );
  const id: TProperties = { [idField]: Str() };
  // The record: its credentials as strings, passwords opened for the callers who manage it.
  const credentials = Object.fromEntries(Object.keys(EXTRAS[engine]).map((field) => [field, Str()]));
  const record = Closed({ [idField]: Str(), ...databaseFields, ...credentials });
  return group(engine, {
    create: post(Closed({
      name: MinStr(), appName, projectId: Str(), description: OptNull(Str()),
      containerImage: Opt(Type.String({ default: DEFAULT_IMAGES[engine] })), ...extras(false),
    }), record),
    one: get(Closed(id), Closed({ ...record.properties, backups: Type.Array(BackupRecord) })),
    start: post(Closed(id), record),
    stop: post(Closed(id), record),
    deploy: post(Closed(id), record),
    remove: post(Closed(id), record),
    saveExternalPort: post(Closed({ ...id, externalPort: Nullable(Port()) }), record),
    changeStatus: post(Closed({ ...id, applicationStatus: Status() }), record),
    saveEnvironment: post(Closed({ ...id, env: OptNull(Str()) }), record),
    reload: post(Closed({ ...id, appName }), record),
    update: post(Closed({
      [idField]: MinStr(),
      name: Opt(MinStr()), appName: Opt(appName), description: OptNull(Str()), containerImage: Opt(Str()),
      command: OptNull(Str()), env: OptNull(Str()),
      ...resourceFields,
      externalPort: OptNull(Port()), applicationStatus: Opt(Status()), createdAt: CreatedAt(), projectId: Opt(Str()),
      ...extras(true),
    }), record),
  });
}

export const dbalpha = engineGroup('dbalpha');
export const dbbeta = engineGroup('dbbeta');
export const dbgamma = engineGroup('dbgamma');
export const dbdelta = engineGroup('dbdelta');
export const dbepsilon = engineGroup('dbepsilon');
