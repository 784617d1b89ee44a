import { connect, type NatsConnection } from '@nats-io/transport-node';
import { orUnavailable } from '../../ports/unavailable.ts';

/** The first connection failing to reach a server; after it, the client reconnects by itself. */
const isNatsOutage = (error: unknown): boolean => error instanceof Error && error.name === 'ConnectionError';

/** A connection that reconnects for ever once made; a server that cannot be reached is an UnavailableError. */
export const natsConnection = (servers: string, name: string): Promise<NatsConnection> =>
  orUnavailable('NATS', isNatsOutage, () => connect({ servers: servers.split(','), name, maxReconnectAttempts: -1 }));
