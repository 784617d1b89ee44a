import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import { announceSetupToken } from './auth/setup-token.ts';
import { buildServer } from './server.ts';

export async function start(infra: Infrastructure): Promise<RunningRole> {
  const app = buildServer(infra);
  // Written before the port answers: whoever waits for /health finds the token there.
  await announceSetupToken(infra, (line) => console.log(line));
  await app.listen({ host: infra.config.host, port: infra.config.port });
  return { name: 'api', stop: () => app.close() };
}
