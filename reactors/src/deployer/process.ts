// External tools (git, the pack builders, the compose tool) run with their output in the
// deployment log and stop when the deployment is cancelled. Whatever the tool prints passes
// through `redact` first. They get the environment they need to work, not Berth's: the compose
// tool interpolates a user's file from its environment, and Berth's holds the instance key.
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { plainly } from '@berth/shared/runtime/task-watch';
import { DeploymentFailure } from './env.ts';
import { stopGroupOnAbort } from './process-group.ts';

export interface Run {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  /** Hides what must not reach the log (a token in a URL). */
  readonly redact?: (text: string) => string;
  /** Standard output is the answer, not log lines. */
  readonly quiet?: boolean;
  /** How a failure names the run ("docker compose up"); the command and its first argument by default. */
  readonly what?: string;
}

/** Lines that say what went wrong, among a tool's output: its failure's reason is the last few. */
const SAYS_WHY = /\berror\b|failed|denied|not found|no such|already in use|invalid/i;
const REASON_LINES = 3;

/** What a tool inherits of Berth's environment: finding programs, home and locale, proxies, certificate authorities, the engine. */
const INHERITED = [
  'PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'GIT_SSL_CAINFO', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CERT_PATH', 'DOCKER_TLS_VERIFY',
];

/** A tool's environment: the inherited part of Berth's, then what the run gives. */
export function toolEnvironment(given: NodeJS.ProcessEnv = {}, own: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(INHERITED.flatMap((name) => (own[name] === undefined ? [] : [[name, own[name]]])));
  return { ...inherited, ...given };
}

/**
 * A tool started through util-linux's `setpriv` is killed with Berth, even by SIGKILL: a clone left
 * running would write into the folder the restarted Berth clones into again. Where it is missing the
 * tool runs as it is.
 */
const parentDeath: Promise<boolean> = new Promise((resolve) => {
  // Its option as well as itself: util-linux before 2.33 has no --pdeathsig.
  const probe = spawn('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' });
  probe.on('error', () => resolve(false));
  probe.on('close', (code) => resolve(code === 0));
});

/** Runs `command` to its end; answers its standard output; throws its last words when it fails. */
export async function runTool(command: string, args: readonly string[], run: Run): Promise<string> {
  const redact = run.redact ?? ((text: string) => text);
  const diesWithBerth = await parentDeath;
  const env = toolEnvironment(run.env);
  // setpriv would only say it could not execute it.
  if (diesWithBerth && !(await isInstalled(command, env.PATH))) throw notInstalled(command);
  const [program, programArgs] = diesWithBerth ? ['setpriv', ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
  run.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    // In a group of its own: a cancellation (or Berth's stop) ends what the tool started too, not the tool alone.
    const child = spawn(program, programArgs, { cwd: run.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = stopGroupOnAbort(child, run.signal);
    let output = '';
    let last = '';
    const why: string[] = [];
    const logLines = (chunk: Buffer) => {
      for (const line of redact(chunk.toString()).split(/\r?\n/)) {
        if (!line.trim()) continue;
        run.log(line);
        last = line;
        // The tool's closing line is often a summary ("Encountered errors…"): the lines before it say why.
        if (SAYS_WHY.test(line) && !why.includes(line.trim())) why.push(line.trim());
        if (why.length > REASON_LINES) why.shift();
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!run.quiet) logLines(chunk);
    });
    child.stderr.on('data', logLines);
    child.on('error', (error: NodeJS.ErrnoException) => {
      stop.end();
      reject(error.code === 'ENOENT' ? notInstalled(command) : error);
    });
    child.on('close', (code) => {
      stop.end();
      if (run.signal.aborted) reject(run.signal.reason);
      else if (code === 0) resolve(output);
      else reject(new DeploymentFailure(`${run.what ?? `${command} ${args[0] ?? ''}`.trim()} failed (exit ${code}): ${plainly(why.length > 0 ? why.join(' | ') : last)}`));
    });
  });
}

const notInstalled = (command: string) => new DeploymentFailure(`${command} is not installed on this host`);

/** Whether `command` can be run: found on `path` (Berth's own unless given), or where a path to it says. */
export async function isInstalled(command: string, path = process.env.PATH): Promise<boolean> {
  const candidates = command.includes('/') ? [command] : (path ?? '').split(':').filter(Boolean).map((dir) => `${dir}/${command}`);
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return true;
    } catch { /* not here */ }
  }
  return false;
}
