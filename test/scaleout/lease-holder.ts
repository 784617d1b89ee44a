// A process that holds one lease and says when its work starts and stops: the test kills it -9.
import { NatsLeases } from '@berth/shared/adapters/nats/leases';

const [servers, name, ttl] = process.argv.slice(2);
const leases = await NatsLeases.connect(servers!, { ttlMs: Number(ttl) });
leases.hold(name!, {
  async start() { console.log('started'); },
  async stop() { console.log('stopped'); },
});
