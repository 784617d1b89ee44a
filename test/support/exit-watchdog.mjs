// Loaded into every test file's process. A file whose tests have all ended but that something
// (a server, a socket, a timer) still holds open would hold the whole run until CI's limit. Node's
// --test-force-exit would end it, but it also drops the last verdicts of files that were fine
// (nodejs/node#64833). So: once the file's tests end, wait a grace period; if the process is
// still alive then, name what holds it and end it as failed. The grace starts before the file's
// own `after` hooks (this one is registered first, and hooks run in order), so it leaves them
// time to remove what the tests deployed. BERTH_TEST_EXIT_TRACE=1 adds where each handle still
// alive was made (slow: it records every handle's stack).
import { createHook } from 'node:async_hooks';
import { after } from 'node:test';

const GRACE_MS = Number(process.env.BERTH_TEST_EXIT_GRACE_MS ?? 120_000);

/** Handles and timers alive now, by the stack that made them. */
function tracer() {
  Error.stackTraceLimit = 40;
  const made = new Map();
  createHook({
    init(id, type) { made.set(id, `${type}${new Error().stack.split('\n').slice(2, 40).join('\n')}`); },
    destroy(id) { made.delete(id); },
  }).enable();
  return () => [...made.values()].filter((entry) => !entry.startsWith('PROMISE'));
}

if (process.env.NODE_TEST_CONTEXT?.startsWith('child')) {
  const alive = process.env.BERTH_TEST_EXIT_TRACE === '1' ? tracer() : null;
  after(() => {
    setTimeout(() => {
      // The two pipes are the runner's (this process's stdout and stderr); one timer is this one.
      const held = process.getActiveResourcesInfo();
      const count = new Map();
      for (const kind of held) count.set(kind, (count.get(kind) ?? 0) + 1);
      const shown = [...count].map(([kind, n]) => `${kind} ×${n}`).join(', ');
      process.stderr.write(`\n# this test file ended its tests but was still running ${GRACE_MS} ms later, held by: ${shown}\n`);
      if (alive) process.stderr.write(`${alive().join('\n\n')}\n`);
      process.exit(1);
    }, GRACE_MS).unref();
  });
}
