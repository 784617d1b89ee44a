// A port's host port, held in the one namespace of host ports. The engine publishes an application's
// ports as its last successful rollout left them (Application.publishedPorts), until the next one:
// a host port a port lets go of while the engine still publishes it is handed to the application
// (the deployer lets go of it once a rollout no longer publishes it), and a port taking it again
// takes it back from the application. Another service cannot claim it meanwhile.
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { targetTaken, type Port } from '@berth/shared/domain/port/port';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import type { Context } from '../context.ts';
import { moveName, moving, release } from './reservations.ts';

const handOver = (ctx: Context, name: string, owner: string, to: string) => {
  const key = reservationKey('hostPort', name);
  return ctx.execute(reservationAggregate, key, { type: 'HandOver', data: { key, owner, to } });
};

/** Claims `name` for the port, from its application when that holds it (CONFLICT naming publishedPort when another service does). */
async function takePortName(ctx: Context, name: string, portId: string, applicationId: string): Promise<void> {
  const key = reservationKey('hostPort', name);
  await ctx.execute(reservationAggregate, key, { type: 'Reserve', data: { key, owner: portId, field: 'publishedPort', from: applicationId } });
}

/** Whether the application's service publishes `name`, as its stream says now. */
async function publishes(ctx: Context, applicationId: string, name: string): Promise<boolean> {
  ctx.forget(applicationAggregate, applicationId); // the deployer records them, not this request
  return (await ctx.load(applicationAggregate, applicationId)).state?.publishedPorts?.includes(name) ?? false;
}

/** Lets go of the port's `name`: to its application while the application's service publishes it. */
export async function letGoOfPortName(ctx: Context, name: string, portId: string, applicationId: string): Promise<void> {
  if (!(await publishes(ctx, applicationId, name))) return release(ctx, 'hostPort', name, portId);
  await handOver(ctx, name, portId, applicationId);
  // A rollout that no longer publishes it may have been recorded meanwhile, letting go only of what the application held then.
  if (!(await publishes(ctx, applicationId, name))) await release(ctx, 'hostPort', name, applicationId);
}

/** Applies a change that moves a port from the host port `current` to `next` (either null: none). */
export const movePortName = <T>(ctx: Context, current: string | null, next: string | null, portId: string, applicationId: string, apply: () => Promise<T>): Promise<T> =>
  moving(current, next, (name) => takePortName(ctx, name, portId, applicationId), (name) => letGoOfPortName(ctx, name, portId, applicationId), apply);

type Target = Pick<Port, 'applicationId' | 'targetPort' | 'protocol'>;

/** The name a port holds for its container port, unique within its application (see domain/port/port.ts). */
export const targetName = (port: Target): string => `${port.applicationId}/${port.targetPort}/${port.protocol}`;

/**
 * Applies a change that moves a port from one container port to another (`current` null: a new
 * port), claimed in the log, so of two requests giving one application's ports one container port
 * only one wins (CONFLICT naming targetPort). A port written before this claim existed holds none:
 * the siblings the handler reads refuse a repeat of its container port.
 */
export const moveTargetName = <T>(ctx: Context, current: Target | null, next: Target, portId: string, apply: () => Promise<T>): Promise<T> =>
  moveName(ctx, 'targetPort', current && targetName(current), targetName(next), portId, apply, 'targetPort',
    () => targetTaken(next.targetPort, next.protocol));
