// The per-engine credential fields of a database create, straight from the spec's table, for every
// test that makes databases.
import type { Engine } from '@berth/shared/contract/databases';

/** The credential fields each engine's create takes. */
const CREDENTIAL_FIELDS: Record<Engine, readonly CredentialField[]> = {
  dbalpha: ['databaseName', 'databaseUser', 'databasePassword', 'databaseRootPassword'],
  dbbeta: ['databaseName', 'databaseUser', 'databasePassword', 'databaseRootPassword'],
  dbgamma: ['databaseName', 'databaseUser', 'databasePassword'],
  dbdelta: ['databaseUser', 'databasePassword'],
  dbepsilon: ['databasePassword'],
};

type CredentialField = 'databaseName' | 'databaseUser' | 'databasePassword' | 'databaseRootPassword';

/** The credential fields that are secrets: sealed in the log, generated when sent empty. */
export const PASSWORD_FIELDS: ReadonlySet<string> = new Set<CredentialField>(['databasePassword', 'databaseRootPassword']);

export interface CredentialValues {
  /** The database name and user; `app` unless given. */
  readonly name?: string;
  /** Every password field's value; empty (the default) lets Berth generate them. */
  readonly password?: string;
  /**
   * Instead of `password`: passwords distinct per engine and field, for the tests that look for them
   * in the log (`alpha-pass-${secret}`, `alpha-root-${secret}` for dbalpha).
   */
  readonly secret?: string;
}

/** An engine's credential fields as a create sends them. */
export function databaseCredentials(engine: Engine, values: CredentialValues = {}): Record<string, string> {
  const { name = 'app', password = '', secret } = values;
  const kind = engine.replace(/^db/, '');
  const value: Record<CredentialField, string> = {
    databaseName: name,
    databaseUser: name,
    databasePassword: secret === undefined ? password : `${kind}-pass-${secret}`,
    databaseRootPassword: secret === undefined ? password : `${kind}-root-${secret}`,
  };
  return Object.fromEntries(CREDENTIAL_FIELDS[engine].map((field) => [field, value[field]]));
}
