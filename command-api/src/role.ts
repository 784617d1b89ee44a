import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import { announceSetupToken } from './auth/setup-token.ts';
import { buildServer } from './server.ts';

export async function start(infra: Infrastructure): Promise<RunningRole> {
  const app = buildServer(infra);
  await app.listen({ host: infra.config.host, port: infra.config.port });
  await announceSetupToken(infra, (line) => console.log(line));
  return { name: 'api', stop: () => app.close() };
}
