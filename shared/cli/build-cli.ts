// The berth command's kept build (bin.mjs runs it): the command with what it imports, built as
// `pnpm start` builds Berth (runtime/build.ts), and a stamp naming the files it was made from, so
// that a call after one of them changed builds it again. The lockfile is among them: the build
// imports each package at the file installed for it.
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntries } from '../runtime/build.ts';
import { ROLE_COMMANDS } from '../runtime/roles-cli.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const LOCKFILE = join(ROOT, 'pnpm-lock.yaml');

export interface CliStamp {
  /** The built command's path. */
  readonly entry: string;
  /** Each file it was made from, with its modification time then (ms). */
  readonly sources: Readonly<Record<string, number>>;
  /** The commands that run Berth's roles: not from the kept build (bin.mjs says why). */
  readonly roleCommands: readonly string[];
}

/** Builds the command into `dirname(stampFile)`, for this process to run, and writes its stamp (whole, or not at all). */
export async function buildCli(stampFile: string): Promise<CliStamp> {
  const main = join(HERE, 'main.ts');
  const { folder, sources } = await buildEntries([main], { base: HERE, buildDir: dirname(stampFile), usedBy: process.pid });
  const stamp: CliStamp = {
    entry: join(folder, 'main.mjs'),
    sources: Object.fromEntries([...sources, LOCKFILE].map((file) => [file, statSync(file).mtimeMs])),
    roleCommands: ROLE_COMMANDS,
  };
  const aside = `${stampFile}.${process.pid}`;
  writeFileSync(aside, JSON.stringify(stamp));
  renameSync(aside, stampFile);
  return stamp;
}
