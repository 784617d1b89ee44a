import type { Operation } from '@berth/shared/contract/operation';
import { notImplemented } from '@berth/shared/errors';
import { admin } from './admin.ts';
import { auth } from './auth.ts';
import { user } from './user.ts';
import type { Handler } from './kit.ts';
import { project } from './project.ts';
import { application } from './application.ts';
import { port, redirects, security } from './application-children.ts';
import { compose } from './compose.ts';
import { databaseGroups } from './database.ts';
import { backup } from './backup.ts';
import { destination } from './destination.ts';
import { registry } from './registry.ts';
import { certificates } from './certificates.ts';
import { cluster, container } from './engine.ts';
import { deployment } from './deployment.ts';
import { events } from './events.ts';

const groups: Record<string, Record<string, Handler<never> | undefined>> = {
  project, auth, admin, user,
  application, port, redirects, security,
  compose, ...databaseGroups,
  backup, destination, registry, certificates, deployment, events,
  cluster, container,
};

/** The handler of an operation; one not built yet answers NOT_IMPLEMENTED, and appends nothing. */
export function handlerOf(operation: Operation): Handler<unknown> {
  const handler = groups[operation.group]?.[operation.procedure] as Handler<unknown> | undefined;
  return handler ?? (async () => { throw notImplemented(operation.name); });
}
