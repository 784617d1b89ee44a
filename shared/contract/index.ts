// The whole interface as one table: routes, validation and the API document all read it.
import type { Operation } from './operation.ts';
import { project } from './project.ts';
import { application } from './application.ts';
import { compose } from './compose.ts';
import { dbalpha, dbbeta, dbdelta, dbepsilon, dbgamma } from './databases.ts';
import { backup, destination } from './storage.ts';
import { certificates, port, redirects, registry, security } from './routing.ts';
import { admin, auth, user } from './accounts.ts';
import { cluster, container } from './cluster.ts';
import { deployment } from './deployment.ts';
import { events } from './events.ts';

export const contract = {
  project, application, compose, dbalpha, dbbeta, dbgamma, dbdelta, dbepsilon, backup, destination,
  registry, redirects, port, security, certificates, auth, admin, container, cluster, user, deployment, events,
} as const;

export type Contract = typeof contract;

export const operations: readonly Operation[] = Object.values(contract).flatMap(
  (operationsOfGroup) => Object.values(operationsOfGroup) as Operation[],
);

/** Operations that hand out a token: they accept a request whatever its Authorization holds. */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set(['auth.login', 'auth.verifyLogin2FA', 'auth.createUser']);
