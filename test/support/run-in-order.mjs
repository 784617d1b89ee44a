// Runs the test files given, in the order given, some at once: `node --test` sorts the files it is
// given by name, which ran the slowest ones last. The files run from their build (build-tests.ts),
// each in a process of its own with this process's flags, as under `node --test` (so
// `--test-timeout` bounds each test); TAP goes to stdout (see compactTap) and the failed tests,
// named again after the summary, to stderr. Exit 1 when a test failed.
// `run-in-order.mjs <files at once> <build folder> <test file>...`
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import failures from './failures-reporter.mjs';

/**
 * No file runs longer (the slowest takes under two minutes). node's runner reports the files in
 * order and waits for each file's process to end and its output to close, which a process the
 * file started may hold open: one such file would otherwise hold the whole run until CI's limit.
 */
const FILE_TIMEOUT_MS = Number(process.env.BERTH_TEST_FILE_TIMEOUT_MS ?? 600_000);

const [concurrency, built, ...sources] = process.argv.slice(2);
if (!built || sources.length === 0) throw new Error('usage: run-in-order.mjs <files at once> <build folder> <test file>...');

/** The processes started under a test file (the runner marks each file's environment), with what their output goes to. */
function testProcesses() {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').some((entry) => entry.startsWith('NODE_TEST_CONTEXT=child'))) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim().slice(0, 200);
      found.push(`${pid} (output to ${readlinkSync(`/proc/${pid}/fd/1`)}) ${command}`);
    } catch {
      // ended meanwhile, or no output
    }
  }
  return `processes started under a test file: ${found.length === 0 ? 'none' : `\n${found.join('\n')}`}`;
}

/** What the machine runs and has left, for a file that ran out of time. */
function machineState() {
  const shell = (command) => {
    try {
      return execFileSync('sh', ['-c', command], { encoding: 'utf8', timeout: 10_000 }).trimEnd();
    } catch (error) {
      return `(${command}: ${error.message})`;
    }
  };
  return [
    shell('grep -E "^(MemAvailable|MemTotal)" /proc/meminfo'),
    shell('echo "tasks: $(ls /proc/*/task 2>/dev/null | grep -c "^[0-9]") of $(cat /proc/sys/kernel/pid_max) (pid_max)"'),
    testProcesses(),
    shell('ps -eo pid,ppid,etimes,stat,rss,args --forest | awk \'$1 != 2 && $2 != 2\' | cut -c1-220 | head -80'),
  ].join('\n');
}

const stream = run({
  files: sources.map((source) => join(built, source.replace(/\.ts$/, '.mjs'))),
  concurrency: Number(concurrency),
  timeout: FILE_TIMEOUT_MS,
});
stream.on('test:fail', (test) => {
  if (!test.todo) process.exitCode = 1; // as under `node --test`: a todo test's failure is expected
  const { name, file, details } = test;
  if (name === file && details?.error?.failureType === 'testTimeoutFailure') {
    // On both: a log may keep only one of them.
    const said = `\n# ${file} ran out of its ${FILE_TIMEOUT_MS / 1000} s; the machine then:\n${machineState().replace(/^/gm, '# ')}\n`;
    process.stdout.write(said);
    process.stderr.write(said);
  }
});
/**
 * TAP, without the block of timings under each passing test inside a file (four lines of five in
 * a run that passes): a file's own block stays, with its time.
 */
async function* compactTap(source) {
  let passedInside = false;
  for await (const chunk of tap(source)) {
    if (passedInside) {
      passedInside = false;
      if (chunk.trimStart().startsWith('---')) continue;
    }
    passedInside = /^ +ok \d/.test(chunk);
    yield chunk;
  }
}

const report = stream.compose(compactTap);
report.pipe(process.stdout);
const failed = stream.compose(failures);
failed.pipe(process.stderr);
// Once the summary is out, the run is over: a process a test left behind holding a file's output
// must not keep this one alive. (Writes to a pipe or a file are synchronous here: none is lost.)
await Promise.all([finished(report), finished(failed)]);
process.exit();
