// The test files, built as `pnpm start` builds Berth (shared/runtime/build.ts): every file with what
// it imports, in one build, which node runs with no compiling loader. Through tsx, each module of a
// test file's process was compiled and handed to it by the loader's thread: about a second of CPU
// for a file that starts a Berth, a third of the whole suite's CPU on two cores.
// `build-tests.ts <pid> <file>...` prints the build's folder, where each file is at its own path
// as .mjs; the folder stays while the process <pid> runs (the test command), as Berth's own builds do.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntries } from '../../shared/runtime/build.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const [usedBy, ...files] = process.argv.slice(2);
if (!usedBy || files.length === 0) throw new Error('usage: build-tests.ts <pid of the test run> <test file>...');
console.log((await buildEntries(files, { base: ROOT, buildDir: join(ROOT, '.build-tests'), usedBy: Number(usedBy) })).folder);
