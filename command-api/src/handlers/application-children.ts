// What hangs off an application: published ports, redirects and basic-auth users. Each belongs
// to one existing application, is listed in its `one`, and goes with it when it is deleted.
import type { contract } from '@berth/shared/contract/index';
import { DomainError, conflict } from '@berth/shared/errors';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { mustNotBeRemoving } from '@berth/shared/domain/removal';
import { mustNotRepeatTarget, portAggregate, type Binding, type Port, type PortCommand } from '@berth/shared/domain/port/port';
import { redirectAggregate, type RedirectCommand } from '@berth/shared/domain/redirect/redirect';
import { mustBeBasicAuthName, mustBeBasicAuthPassword, securityAggregate, type Security, type SecurityCommand, type User } from '@berth/shared/domain/security/security';
import type { Context } from '../context.ts';
import { change, one, type GroupHandlers } from './kit.ts';
import { resealed } from './secret-update.ts';
import { createUser, hostPort, moveName, release, stopUsing, withClaim } from './reservations.ts';
import { letGoOfPortName, movePortName, moveTargetName, targetName } from './port-claims.ts';
import { retireWithDependents } from './cascade.ts';
import { mustNotStartFirstOnHostPorts } from '@berth/shared/domain/application/host-port-rollout';

export const APPLICATION_USE = { label: 'Application', field: 'applicationId', users: 'port(s), redirect(s) or user(s)' } as const;

/** Adds a child to an existing application, which counts it among its users once written (see createUser). */
async function inApplication<T>(
  ctx: Context, applicationId: string, childId: string, create: () => Promise<T>, remove: (id: string, ctx: Context) => Promise<unknown>,
): Promise<T> {
  // One whose removal began (and stopped part-way, Berth killed) takes nothing new: removing it again finishes it.
  mustNotBeRemoving(await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId'), 'applicationId', 'Application');
  return createUser(ctx, 'application', applicationId, childId, APPLICATION_USE, create, () => remove(childId, ctx));
}

/** Removes a port, then lets its host port (to the application, while its service publishes it) and its application go. */
export async function removePort(portId: string, ctx: Context) {
  const { before } = await ctx.execute(portAggregate, portId, { type: 'RemovePort', data: { portId } });
  if (before) {
    await letGoOfPortName(ctx, hostPort(before.publishedPort, before.protocol), portId, before.applicationId);
    await release(ctx, 'targetPort', targetName(before), portId);
    await stopUsing(ctx, 'application', before.applicationId, portId);
  }
  return ctx.view(portAggregate, before);
}
export async function removeRedirect(redirectId: string, ctx: Context) {
  const { before } = await ctx.execute(redirectAggregate, redirectId, { type: 'RemoveRedirect', data: { redirectId } });
  if (before) await stopUsing(ctx, 'application', before.applicationId, redirectId);
  return ctx.view(redirectAggregate, before);
}
/** Removes a basic-auth user, then lets its username and its application go. */
export async function removeSecurity(securityId: string, ctx: Context) {
  const { before } = await ctx.execute(securityAggregate, securityId, { type: 'RemoveSecurity', data: { securityId } });
  if (before) {
    await release(ctx, 'basicAuth', usernameOf(before.applicationId, before.username), securityId);
    await stopUsing(ctx, 'application', before.applicationId, securityId);
  }
  return ctx.view(securityAggregate, before);
}
/** A basic-auth username as reserved: unique within its application. */
const usernameOf = (applicationId: string, username: string) => `${applicationId}/${username}`;
/** A username another user of the application holds, named as the caller wrote it, not by its reservation's key. */
const usernameRefused = (username: string) => (_key: string, error: unknown) => (error instanceof DomainError && error.code === 'CONFLICT'
  ? conflict(`username "${username}" is already taken by this application`, 'username')
  : error);

interface ChildKind {
  /** Key of the list in an application's answer. */
  readonly key: string;
  readonly aggregate: AnyAggregate;
  /** The removal its own delete operation makes. */
  readonly remove: (id: string, ctx: Context) => Promise<unknown>;
}

const childKinds: readonly ChildKind[] = [
  { key: 'ports', aggregate: portAggregate, remove: removePort },
  { key: 'redirects', aggregate: redirectAggregate, remove: removeRedirect },
  { key: 'security', aggregate: securityAggregate, remove: removeSecurity },
];

/** The children of an application, by kind, newest first. */
export async function childrenOf(applicationId: string, ctx: Context): Promise<Record<string, unknown[]>> {
  const lists = await Promise.all(childKinds.map((kind) => ctx.list(kind.aggregate, 'applicationId', applicationId)));
  return Object.fromEntries(childKinds.map((kind, i) => [kind.key, lists[i]!]));
}

/** Removes the application's children, then retires it: no child can be added after. */
export const removeChildrenOf = (applicationId: string, ctx: Context): Promise<void> =>
  retireWithDependents(ctx, 'application', applicationId, APPLICATION_USE, 'is still being given ports, redirects or users; try again', {
    kinds: childKinds, field: 'applicationId',
  });

// The siblings a port or a user must not clash with, read here so the deciders stay pure.
const bindingsOf = async (applicationId: string, ctx: Context): Promise<Binding[]> =>
  (await ctx.list(portAggregate, 'applicationId', applicationId) as unknown as Port[])
    .map(({ portId, publishedPort, targetPort, protocol }) => ({ portId, publishedPort, targetPort, protocol }));
const usersOf = async (applicationId: string, ctx: Context): Promise<User[]> =>
  (await ctx.list(securityAggregate, 'applicationId', applicationId) as unknown as Security[])
    .map(({ securityId, username }) => ({ securityId, username }));

export const port: GroupHandlers<typeof contract.port> = {
  create: async (input, ctx) => {
    const portId = ctx.newId(portAggregate);
    const protocol = input.protocol ?? 'tcp';
    const port = { portId, publishedPort: input.publishedPort, targetPort: input.targetPort, protocol, applicationId: input.applicationId };
    // A repeat the read models see is refused before anything is claimed, so the refusal appends nothing.
    mustNotRepeatTarget(port, await bindingsOf(input.applicationId, ctx));
    // Only ports published on the host are held by an old task while its start-first successor starts.
    if (ctx.infra.config.publishMode === 'host') {
      mustNotStartFirstOnHostPorts(await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId'), true, 'publishedPort');
    }
    // The host's ports are one namespace for every service: claimed in the log before the port is written;
    // so is its container port within the application (the engine publishes one binding of each).
    return inApplication(ctx, input.applicationId, portId, () =>
      movePortName(ctx, null, hostPort(input.publishedPort, protocol), portId, input.applicationId, () =>
        moveTargetName(ctx, null, port, portId, () => change(portAggregate, async () => ({
          type: 'CreatePort',
          data: { ...port, createdAt: ctx.now, taken: await bindingsOf(input.applicationId, ctx) },
        } satisfies PortCommand))(input, ctx))), removePort);
  },
  one: one(portAggregate),
  update: async (input, ctx) => {
    // Read to change: its host port's claim is decided from this record, so a concurrent update answers 409.
    const current = await ctx.readToChange(portAggregate, input.portId, 'portId');
    const protocol = input.protocol ?? current.protocol;
    const next = hostPort(input.publishedPort, protocol);
    const target = { applicationId: current.applicationId, targetPort: input.targetPort, protocol };
    mustNotRepeatTarget({ ...input, protocol }, await bindingsOf(current.applicationId, ctx));
    return movePortName(ctx, hostPort(current.publishedPort, current.protocol), next, input.portId, current.applicationId,
      () => moveTargetName(ctx, current, target, input.portId, () => change(portAggregate, async () => ({
        type: 'UpdatePort', data: { ...input, protocol, taken: await bindingsOf(current.applicationId, ctx) },
      } satisfies PortCommand))(input, ctx)));
  },
  delete: (input, ctx) => removePort(input.portId, ctx),
};

export const redirects: GroupHandlers<typeof contract.redirects> = {
  create: (input, ctx) => {
    const redirectId = ctx.newId(redirectAggregate);
    return inApplication(ctx, input.applicationId, redirectId, () => change(redirectAggregate, () =>
      ({ type: 'CreateRedirect', data: { redirectId, ...input, createdAt: ctx.now } } satisfies RedirectCommand))(input, ctx), removeRedirect);
  },
  one: one(redirectAggregate),
  update: change(redirectAggregate, (input) => ({ type: 'UpdateRedirect', data: input }) satisfies RedirectCommand),
  delete: (input, ctx) => removeRedirect(input.redirectId, ctx),
};

export const security: GroupHandlers<typeof contract.security> = {
  create: async (input, ctx) => {
    await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
    mustBeBasicAuthName(input.username);
    mustBeBasicAuthPassword(input.password);
    const securityId = ctx.newId(securityAggregate);
    return inApplication(ctx, input.applicationId, securityId, () =>
      withClaim(ctx, 'basicAuth', usernameOf(input.applicationId, input.username), securityId, () => change(securityAggregate, async () => ({
        type: 'CreateSecurity',
        data: {
          securityId, applicationId: input.applicationId, username: input.username,
          password: ctx.secrets.seal(input.password), createdAt: ctx.now, taken: await usersOf(input.applicationId, ctx),
        },
      } satisfies SecurityCommand))(input, ctx), 'username', usernameRefused(input.username)), removeSecurity);
  },
  one: one(securityAggregate),
  update: async (input, ctx) => {
    const current = await ctx.mustLoad(securityAggregate, input.securityId, 'securityId');
    mustBeBasicAuthName(input.username);
    mustBeBasicAuthPassword(input.password);
    const name = (username: string) => usernameOf(current.applicationId, username);
    return moveName(ctx, 'basicAuth', name(current.username), name(input.username), input.securityId,
      () => change(securityAggregate, async () => ({
        type: 'UpdateSecurity',
        data: {
          securityId: input.securityId, username: input.username,
          password: resealed(ctx, current.password, input.password), taken: await usersOf(current.applicationId, ctx),
        },
      } satisfies SecurityCommand))(input, ctx), 'username', usernameRefused(input.username));
  },
  delete: (input, ctx) => removeSecurity(input.securityId, ctx),
};
