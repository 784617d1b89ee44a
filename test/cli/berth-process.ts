// The `berth` command as its own process, the way a shell runs it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../shared/cli/bin.mjs', import.meta.url));

export interface Run { code: number | null; stdout: string; stderr: string }

export const spawnBerth = (env: NodeJS.ProcessEnv, args: readonly string[]): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });

/** What the process printed, once it has ended. */
export const finished = (child: ChildProcessWithoutNullStreams): Promise<Run> => new Promise((resolve, reject) => {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  child.once('error', reject);
  child.once('close', (code) => resolve({ code, stdout, stderr }));
});

export const runBerth = (env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> => finished(spawnBerth(env, args));
