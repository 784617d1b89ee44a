// External tools (git, the pack builders) run with their output in the deployment log and stop
// when the deployment is cancelled. Whatever the tool prints passes through `redact` first.
import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import { DeploymentFailure } from './env.ts';

export interface Run {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  /** Hides what must not reach the log (a token in a URL). */
  readonly redact?: (text: string) => string;
  /** Standard output is the answer, not log lines. */
  readonly quiet?: boolean;
}

/** Runs `command` to its end; answers its standard output; throws its last words when it fails. */
export function runTool(command: string, args: readonly string[], run: Run): Promise<string> {
  const redact = run.redact ?? ((text: string) => text);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: run.cwd, env: { ...process.env, ...run.env }, signal: run.signal, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let last = '';
    const logLines = (chunk: Buffer) => {
      for (const line of redact(chunk.toString()).split(/\r?\n/)) {
        if (line.trim()) { run.log(line); last = line; }
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!run.quiet) logLines(chunk);
    });
    child.stderr.on('data', logLines);
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT'
      ? new DeploymentFailure(`${command} is not installed on this host`) : error));
    child.on('close', (code) => code === 0
      ? resolve(output)
      : reject(new DeploymentFailure(`${command} ${args[0] ?? ''} failed (exit ${code}): ${redact(last)}`)));
  });
}

/** Whether `command` can be found on the PATH. */
export async function isInstalled(command: string): Promise<boolean> {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  for (const dir of dirs) {
    try {
      await access(`${dir}/${command}`);
      return true;
    } catch { /* not here */ }
  }
  return false;
}
