// Preloaded into the Berth under test (with --expose-gc): on SIGUSR2, a full collection, then what
// is still live written to BERTH_TEST_MEMORY_FILE, so a test tells retained memory from garbage
// not yet collected.
const { writeFileSync } = require('node:fs');
process.on('SIGUSR2', () => {
  global.gc();
  const { heapUsed, external } = process.memoryUsage();
  writeFileSync(process.env.BERTH_TEST_MEMORY_FILE, JSON.stringify({ liveBytes: heapUsed + external, at: Date.now() }));
});
