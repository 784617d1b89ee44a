#!/usr/bin/env node
// The `berth` command. Its API commands run from a build of its TypeScript kept in .build-cli/ (or
// BERTH_CLI_BUILD_DIR; see build-cli.ts), made again when a file it was made from changed: through
// tsx, each call compiled every module again (0.6 s a call, against 0.3). Its role commands
// (`berth start`, ...) run through tsx: a process that runs for months must not run from files a
// later build replaces. Where no build can be kept (a folder it may not write), it runs through tsx.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const STAMP = join(resolve(process.env.BERTH_CLI_BUILD_DIR || fileURLToPath(new URL('../../.build-cli', import.meta.url))), 'stamp.json');

/** The kept build's stamp; null when there is none or a file it was made from changed since. */
function keptBuild() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    for (const [file, modified] of Object.entries(stamp.sources)) if (statSync(file).mtimeMs !== modified) return null;
    return stamp;
  } catch {
    return null;
  }
}

let compiling = false;
/** Imports TypeScript modules from here on. */
async function throughTsx() {
  if (compiling) return;
  compiling = true;
  (await import('tsx/esm/api')).register();
}

async function buildNow() {
  await throughTsx();
  return (await import('./build-cli.ts')).buildCli(STAMP).catch(() => null);
}

const command = process.argv[2] ?? '';
const stamp = keptBuild() ?? await buildNow();
if (stamp && !stamp.roleCommands.includes(command)) await import(pathToFileURL(stamp.entry).href);
else {
  await throughTsx();
  await import('./main.ts');
}
