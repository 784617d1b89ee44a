// The handlers of the five database groups, made by one factory: the engines differ only in
// their id field, default image and credential fields, all read from the contract.
import type { contract } from '@berth/shared/contract/index';
import type { InputOf } from '@berth/shared/contract/operation';
import { credentialFields, DEFAULT_IMAGES, ENGINES, type Engine } from '@berth/shared/contract/databases';
import type { Status } from '@berth/shared/contract/schema';
import { randomPassword } from '@berth/shared/crypto/random-password';
import { backupAggregate } from '@berth/shared/domain/backup/backup';
import {
  databaseAggregates, idFieldOf, type Credentials, type Database, type DatabasePatch,
} from '@berth/shared/domain/database/database';
import type { Doc } from '@berth/shared/ports/read-store';
import { mustNotBeRemoving } from '@berth/shared/domain/removal';
import type { Context } from '../context.ts';
import { newAppName, releaseAppName, renaming, withAppName } from './app-name.ts';
import { inProject, leaveProject, mayMoveTo, movingProject } from './project-use.ts';
import { retireWithBackups } from './backup.ts';
import type { GroupHandlers, Handler } from './kit.ts';
import { hostPort, moveName, mustBeFree, release, withClaim } from './reservations.ts';
import { resealed, sealedEnv } from './secret-update.ts';
import { mustStayDeployable } from '@berth/shared/domain/database/deployable';
import { mustBeImageReference } from '@berth/shared/domain/image-reference';
import { hasRun, wasDeployed } from './deployed.ts';
import { badRequest, conflict } from '@berth/shared/errors';
import { ENGINE_PROFILES } from '@berth/shared/domain/database/profile';
import { envMap } from '@berth/shared/domain/compose/values';
import { databaseRuntime, DeploymentFailed } from './database-runtime.ts';
import { mustKeepCreatedAt } from './created-at.ts';

/** Every engine group has the same operations and shapes; only the id field's name differs. */
type EngineGroup = typeof contract.dbalpha;
type Input = Record<string, unknown>;
type CreateInput = InputOf<EngineGroup['create']> & { [K in keyof Credentials]?: string };

const PASSWORDS = ['databasePassword', 'databaseRootPassword'] as const;
const passwordsOf = (engine: Engine) => PASSWORDS.filter((field) => credentialFields(engine).includes(field));

/**
 * Applies a change that may publish the database on another host port (or on none): the port is
 * claimed in the host's one namespace of ports first, so no other service can hold it too.
 */
const withExternalPort = <T>(ctx: Context, current: number | null, next: number | null | undefined, id: string, apply: () => Promise<T>) =>
  moveName(ctx, 'hostPort', current === null ? null : hostPort(current), next == null ? next : hostPort(next), id, apply, 'externalPort');

/**
 * A running database moved to another host port (or to none): the new port is claimed beside the
 * old one, the change saved, and the database redeployed to publish it. The old port is let go only
 * once that succeeded, or is still under way when the answer is due (it will publish the new one). A
 * redeploy that failed left the service on the old port (the deployer puts it back): the record goes
 * back to it and the new one is let go, so no other service can take a port the engine publishes.
 */
async function republishing<T>(
  ctx: Context, id: string, current: number | null, next: number | null,
  change: () => Promise<unknown>, redeploy: () => Promise<T>, changeBack: () => Promise<unknown>,
): Promise<T> {
  const letGo = (port: number | null) => (port === null ? Promise.resolve() : release(ctx, 'hostPort', hostPort(port), id));
  // Claimed as a new record's name is: the old one is no part of the move until the redeploy ends.
  await withExternalPort(ctx, null, next, id, change);
  try {
    const answer = await redeploy();
    await letGo(current);
    return answer;
  } catch (error) {
    if (!(error instanceof DeploymentFailed)) {
      await letGo(current);
      throw error;
    }
    await changeBack();
    await letGo(next);
    throw error;
  }
}

/** What the engine reads once, when it initialises the data volume: the database, its user and their passwords. */
const INITIALISED = ['databaseName', 'databaseUser', ...PASSWORDS] as const;

/**
 * A credential changed after the first deploy would be recorded, answered and used by backups, but
 * the database keeps the one its data was initialised with (a user or database of that name does not
 * exist, a password is refused). Refused instead, naming the field.
 */
async function mustKeepInitialisedCredentials(ctx: Context, id: string, current: Credentials, fields: Record<string, unknown>): Promise<void> {
  const changed = INITIALISED.find((field) => fields[field] !== undefined && fields[field] !== current[field]);
  if (changed && await wasDeployed(ctx, id)) {
    throw conflict(`${changed} cannot change once the database was deployed: its data was initialised with the current one, which the database keeps`, changed);
  }
}

/** The variables of the engine's environment contract (user, password, database): `env` may add to them, not replace them. */
function mustLeaveContractAlone(engine: Engine, env: string): void {
  const contract = Object.keys(ENGINE_PROFILES[engine].environment({}));
  const overridden = contract.filter((name) => name in envMap(env));
  if (overridden.length > 0) {
    throw badRequest('env', `must not set ${overridden.join(', ')}: Berth sets them from the database's own fields, which would no longer say how to reach it`);
  }
}

/**
 * Whether a change of the external port must be deployed at once: a running database is redeployed
 * to publish on the new port (or stop publishing), and the answer waits for it, whether the port came
 * with update or saveExternalPort; one that does not run takes the port at its next deploy. One in
 * `error` after it ran runs still (a failed redeploy put its previous version back, on the old port).
 */
async function republished(ctx: Context, id: string, current: Pick<Database, 'applicationStatus' | 'externalPort'>, externalPort: number | null | undefined) {
  if (externalPort === undefined || current.externalPort === externalPort) return false;
  return current.applicationStatus === 'done' || (current.applicationStatus === 'error' && await hasRun(ctx, id));
}

/**
 * Removes a database as its `remove` does: its backups first (retired with them in the log, so a
 * backup created meanwhile goes too), then the record, then its appName and port.
 */
export async function removeDatabase(engine: Engine, id: string, ctx: Context): Promise<Doc | null> {
  const aggregate = databaseAggregates[engine];
  const idField = idFieldOf(engine);
  // Begun in its stream first (NOT_FOUND when there is none): a change made while its backups go is refused, not deleted with it.
  await ctx.execute(aggregate, id, { type: 'BeginRemoval', data: { [idField]: id } });
  // The reactors take the service (and, when the operator says so, its data volume) away once its
  // deployments are cancelled: in the scaled-out mode this process may have no engine.
  await retireWithBackups(ctx, engine, id);
  const { before } = await ctx.execute(aggregate, id, { type: 'RemoveDatabase', data: { [idField]: id } });
  if (before) await releaseAppName(ctx, before.appName, id);
  if (before?.externalPort != null) await release(ctx, 'hostPort', hostPort(before.externalPort), id);
  if (before) await leaveProject(ctx, before.projectId, id);
  return ctx.view(aggregate, before);
}

export function databaseHandlers(engine: Engine): GroupHandlers<EngineGroup> {
  const aggregate = databaseAggregates[engine];
  const idField = idFieldOf(engine);
  const idOf = (input: Input) => String(input[idField]);

  /** An update of some fields: answers the record after it. */
  const save = (patchOf: (input: Input, ctx: Context) => DatabasePatch | Promise<DatabasePatch>): Handler<Input> =>
    async (input, ctx) => {
      const id = idOf(input);
      const { after } = await ctx.execute(aggregate, id, { type: 'UpdateDatabase', data: { ...(await patchOf(input, ctx)), [idField]: id } });
      return ctx.view(aggregate, after);
    };

  const create: Handler<CreateInput> = async (input, ctx) => {
    if (input.containerImage) mustBeImageReference('containerImage', input.containerImage);
    const id = ctx.newId(aggregate);
    const appName = newAppName(input.appName, input.name);
    const credentials: Credentials = {};
    for (const field of credentialFields(engine) as (keyof Credentials)[]) {
      const given = input[field] ?? '';
      // Passwords are sealed here, before any event holds them; an empty one is generated.
      if (field === 'databasePassword' || field === 'databaseRootPassword') credentials[field] = ctx.secrets.seal(given || randomPassword());
      else credentials[field] = given;
    }
    const data: Database = {
      [idField]: id, name: input.name, appName, description: input.description ?? null,
      containerImage: input.containerImage || DEFAULT_IMAGES[engine], command: null, env: null,
      memoryReservation: null, memoryLimit: null, cpuReservation: null, cpuLimit: null, externalPort: null,
      applicationStatus: 'idle', createdAt: ctx.now, projectId: input.projectId, ...credentials,
    };
    return inProject(ctx, input.projectId, id, () => withClaim(ctx, 'appName', appName, id, async () => {
      const { after } = await ctx.execute(aggregate, id, { type: 'CreateDatabase', data });
      return ctx.view(aggregate, after);
    }), () => removeDatabase(engine, id, ctx));
  };

  const update: Handler<Input> = async (input, ctx) => {
    const id = idOf(input);
    // Read to change: its claims are decided from this record, so a change made meanwhile refuses this one.
    const current = await ctx.readToChange(aggregate, id, idField);
    mustKeepCreatedAt(input.createdAt as string | undefined, current.createdAt);
    const { [idField]: _id, createdAt: _createdAt, ...fields } = input;
    for (const field of passwordsOf(engine)) {
      const given = fields[field];
      // An empty password keeps the current one: the database already runs with it.
      if (typeof given === 'string' && given !== '') fields[field] = resealed(ctx, current[field], given);
      else delete fields[field];
    }
    await mustKeepInitialisedCredentials(ctx, id, current, fields);
    if (typeof fields.env === 'string') {
      mustLeaveContractAlone(engine, fields.env);
      fields.env = sealedEnv(ctx, fields.env, current.env);
    }
    // Empty is the kind's default image, as on create.
    if (fields.containerImage === '') fields.containerImage = DEFAULT_IMAGES[engine];
    // The contract's closed schema admits only this engine's fields, with their types.
    const patch = mustStayDeployable(current, fields as DatabasePatch);
    // Every claim is checked before the first is taken, so a refusal appends nothing.
    await mayMoveTo(ctx, current.projectId, patch.projectId, id);
    const renamed = await renaming(ctx, current.appName, patch.appName, id);
    if (patch.externalPort != null && patch.externalPort !== current.externalPort) await mustBeFree(ctx, 'hostPort', hostPort(patch.externalPort), id, 'externalPort');
    const change = () => withAppName(ctx, current.appName, renamed, id, () =>
      movingProject(ctx, current.projectId, patch.projectId, id, () => save(() => patch)(input, ctx)));
    if (await republished(ctx, id, current, patch.externalPort)) {
      return republishing(ctx, id, current.externalPort, patch.externalPort ?? null, change,
        () => runtime.deploy({ [idField]: id }, ctx), () => save(() => ({ externalPort: current.externalPort }))(input, ctx));
    }
    return withExternalPort(ctx, current.externalPort, patch.externalPort, id, change);
  };

  const runtime = databaseRuntime(engine);

  return {
    create,
    one: async (input: Input, ctx) => ({
      ...(await ctx.one(aggregate, idOf(input))),
      backups: await ctx.list(backupAggregate, idField, idOf(input)),
    }),
    update,
    remove: (input: Input, ctx) => removeDatabase(engine, idOf(input), ctx),
    saveEnvironment: save(async (input, ctx) => {
      const env = (input.env as string | null | undefined) ?? null;
      if (env === null) return { env };
      mustLeaveContractAlone(engine, env);
      const current = await ctx.mustLoad(aggregate, idOf(input), idField);
      return { env: sealedEnv(ctx, env, current.env) };
    }),
    saveExternalPort: async (input: Input, ctx) => {
      // Read to change: its port's claim is decided from this record.
      const current = await ctx.readToChange(aggregate, idOf(input), idField);
      const externalPort = input.externalPort as number | null;
      const saveAt = (port: number | null) => () => save(() => ({ externalPort: port }))(input, ctx);
      if (await republished(ctx, idOf(input), current, externalPort)) {
        return republishing(ctx, idOf(input), current.externalPort, externalPort, saveAt(externalPort),
          () => runtime.deploy({ [idField]: idOf(input) }, ctx), saveAt(current.externalPort));
      }
      return withExternalPort(ctx, current.externalPort, externalPort, idOf(input), saveAt(externalPort));
    },
    changeStatus: async (input: Input, ctx) => {
      const id = idOf(input);
      // The deployer's reports go on while a removal is under way; a caller's change does not.
      mustNotBeRemoving(await ctx.mustLoad(aggregate, id, idField), idField, aggregate.label);
      const command = { type: 'ChangeDatabaseStatus', data: { [idField]: id, applicationStatus: input.applicationStatus as Status } } as const;
      const { after } = await ctx.execute(aggregate, id, command);
      return ctx.view(aggregate, after);
    },
    start: runtime.start,
    stop: runtime.stop,
    deploy: runtime.deploy,
    reload: runtime.reload,
  };
}

/** The handler groups, by engine name. */
export const databaseGroups = Object.fromEntries(ENGINES.map((engine) => [engine, databaseHandlers(engine)])) as
  Record<Engine, GroupHandlers<EngineGroup>>;
