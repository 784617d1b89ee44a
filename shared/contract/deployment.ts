// Deployments (beyond the spec): listed per service, read, followed, cancelled and rolled back.
// Governed like the service they belong to.
import { Type } from '@sinclair/typebox';
import { group, get, post } from './operation.ts';
import { DeploymentRecord } from './records.ts';
import { Closed, MinStr, OneOf, Opt, Str } from './schema.ts';

const id = { deploymentId: MinStr() };

/** The log so far; `follow=true` answers server-sent events instead, one `line` event a line, until it ends. */
const DeploymentLog = Closed({ deploymentId: Str(), status: DeploymentRecord.properties.status, log: Str() });

export const deployment = group('deployment', {
  /** A service's deployments: of an application, a compose service or a database (its `<engine>Id`). */
  all: get(Closed({ applicationId: Opt(MinStr()), composeId: Opt(MinStr()), databaseId: Opt(MinStr()) }), Type.Array(DeploymentRecord)),
  one: get(Closed(id), DeploymentRecord),
  logs: get(Closed({ ...id, follow: Opt(OneOf(['true', 'false'] as const)) }), DeploymentLog),
  cancel: post(Closed(id), DeploymentRecord),
  /** A new deployment that runs again the image of an earlier successful one, without a build. */
  rollback: post(Closed({ ...id, applicationId: Opt(MinStr()) }), DeploymentRecord),
});
