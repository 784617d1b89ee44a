import type { Operation } from '@berth/shared/contract/operation';
import { notImplemented } from '@berth/shared/errors';
import { auth } from './auth.ts';
import type { Handler } from './kit.ts';
import { project } from './project.ts';

const groups: Record<string, Record<string, Handler<never> | undefined>> = {
  project, auth,
};

/** The handler of an operation; one not built yet answers NOT_IMPLEMENTED, and appends nothing. */
export function handlerOf(operation: Operation): Handler<unknown> {
  const handler = groups[operation.group]?.[operation.procedure] as Handler<unknown> | undefined;
  return handler ?? (async () => { throw notImplemented(operation.name); });
}
