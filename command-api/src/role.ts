import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import { announceSetupToken } from './auth/setup-token.ts';
import { claimTokensSavedBefore } from './deploy-token.ts';
import { buildServer } from './server.ts';
import { finishUnfinishedRemovals } from './unfinished-removals.ts';

/** What the API does before its port answers. */
export async function beforeAnswering(infra: Infrastructure, print: (line: string) => void): Promise<void> {
  // Whoever waits for /health finds the token there.
  await announceSetupToken(infra, print);
  // Before the first push: every token has its claim, so a push finds its service by the claim alone.
  await claimTokensSavedBefore(infra, [applicationAggregate, composeAggregate]);
  // Before the first request: a service whose removal stopped part-way (Berth killed) would refuse it.
  await finishUnfinishedRemovals(infra, print);
}

export async function start(infra: Infrastructure): Promise<RunningRole> {
  const app = buildServer(infra);
  await beforeAnswering(infra, (line) => console.log(line));
  await app.listen({ host: infra.config.host, port: infra.config.port });
  return { name: 'api', stop: () => app.close() };
}
