// A Berth role as its own operating-system process (`berth api`, `berth projections`, …).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../shared/runtime/roles-cli.ts', import.meta.url));

export interface RoleProcess {
  readonly child: ChildProcess;
  readonly output: string[];
  /** Resolves with the exit code once the process is gone. */
  readonly exited: Promise<number | null>;
}

export function startRole(role: string, env: Record<string, string>): RoleProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, role], {
    env: { ...process.env, BERTH_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** Waits until `check` holds, polling; fails naming `what` past `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const result = await check().catch(() => undefined);
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
