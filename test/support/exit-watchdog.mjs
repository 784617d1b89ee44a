// Loaded into every test file's process. A file whose tests have all ended but that something
// (a server, a socket, a timer) still holds open would hold the whole run until CI's limit. Node's
// --test-force-exit would end it, but it also drops the last verdicts of files that were fine
// (nodejs/node#64833). So: once the file's tests end, wait a grace period; if the process is
// still alive then, name what holds it and end it as failed.
import { after } from 'node:test';

const GRACE_MS = Number(process.env.BERTH_TEST_EXIT_GRACE_MS ?? 20_000);

if (process.env.NODE_TEST_CONTEXT?.startsWith('child')) {
  after(() => {
    setTimeout(() => {
      const held = process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout');
      process.stderr.write(`\n# this test file ended its tests but was still running ${GRACE_MS} ms later, held by: ${held.join(', ') || 'timers'}\n`);
      process.exit(1);
    }, GRACE_MS).unref();
  });
}
