// The EventStoreDB test server in a process of its own, so the load generator does not share its
// event loop: prints its URL, serves until killed.
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';

const server = await new EventStoreDbTestServer().start();
console.log(server.url);
