// Runs the test files given, in the order given, some at once: `node --test` sorts the files it is
// given by name, which ran the slowest ones last. The files run from their build (build-tests.ts),
// each in a process of its own with this process's flags, as under `node --test` (so
// `--test-timeout` bounds each test); TAP goes to stdout and the failed tests, named again after
// the summary, to stderr. Exit 1 when a test failed.
// `run-in-order.mjs <files at once> <build folder> <test file>...`
import { join } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import failures from './failures-reporter.mjs';

const [concurrency, built, ...sources] = process.argv.slice(2);
if (!built || sources.length === 0) throw new Error('usage: run-in-order.mjs <files at once> <build folder> <test file>...');

const stream = run({ files: sources.map((source) => join(built, source.replace(/\.ts$/, '.mjs'))), concurrency: Number(concurrency) });
stream.on('test:fail', (test) => {
  if (!test.todo) process.exitCode = 1; // as under `node --test`: a todo test's failure is expected
});
stream.compose(tap).pipe(process.stdout);
stream.compose(failures).pipe(process.stderr);
