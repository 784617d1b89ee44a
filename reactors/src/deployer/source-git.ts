// A git source: cloned at its branch over https, ssh (with the application's generated key) or
// from a local path, into the application's own folder. Redeploy rebuilds what was fetched.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSealed, type Sealed, type SecretBox } from '@berth/shared/crypto/secrets';
import { runTool } from './process.ts';
import { allowedGitProtocols, isLocalGitUrl, redactUrl } from '@berth/shared/domain/git-url';

/** The file of a source folder that holds its ssh key while git runs. */
const KEY_FILE = 'ssh-key';

export interface GitSource {
  /** Sealed when it carries credentials. */
  readonly url: string;
  readonly branch: string | null;
  /** The sealed private key for an ssh URL. */
  readonly sshKey: Sealed | null;
  /** Basic-auth credentials for an https URL (a forge installation token), sent as a header, never in the URL. */
  readonly basicAuth?: { readonly user: string; readonly password: string };
}

export interface Fetched {
  readonly dir: string;
  readonly revision: string;
}


/** Credentials for git's http transport through its environment: not in the arguments (ps) or `.git/config`. */
const basicAuthEnv = ({ user, password }: { user: string; password: string }): NodeJS.ProcessEnv => ({
  GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader',
  GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** The URL the checkout in `dir` was cloned from; null when it cannot be told. */
const originOf = (dir: string) => runTool('git', ['remote', 'get-url', 'origin'], { cwd: dir, signal: new AbortController().signal, log: () => {}, quiet: true })
  .then((url) => url.trim(), () => null);

/**
 * Clones the source (resolved only then: a forge source asks the forge for a URL and a token) or
 * reuses the last fetch. `inPlace`: a checkout of the same URL is brought to the branch's head
 * instead of cloned again, keeping the files the repository does not track (the data a compose
 * project's `./data` bind holds).
 */
export async function fetchGit(given: GitSource | (() => Promise<GitSource>), into: string, options: {
  refetch: boolean; inPlace?: boolean; secrets: SecretBox; signal: AbortSignal; log: (line: string) => void;
}): Promise<Fetched> {
  const run = { signal: options.signal, log: options.log, redact: redactUrl };
  const dir = join(into, 'source');
  const checkedOut = existsSync(join(dir, '.git'));
  // A URL that carries credentials is kept sealed; a forge source asks the forge for its URL and token.
  const resolve = async () => {
    const source = typeof given === 'function' ? await given() : given;
    return isSealed(source.url) ? { ...source, url: options.secrets.open(source.url) } : source;
  };
  if (options.refetch && options.inPlace && checkedOut) {
    const source = await resolve();
    if (await originOf(dir) === source.url) {
      options.log(`Updating the checkout from ${redactUrl(source.url)}${source.branch ? ` at ${source.branch}` : ''}`);
      const shallow = isLocalGitUrl(source.url) ? [] : ['--depth', '1'];
      await withAuth(into, source, options.secrets, (env) => runTool('git', ['fetch', ...shallow, 'origin', source.branch ?? 'HEAD'], { ...run, cwd: dir, env }));
      await runTool('git', ['reset', '--hard', 'FETCH_HEAD'], { ...run, cwd: dir });
      return revisionOf(dir, run);
    }
  }
  if (options.refetch || !checkedOut) {
    const source = await resolve();
    options.log(`Cloning ${redactUrl(source.url)}${source.branch ? ` at ${source.branch}` : ''}`);
    const branch = source.branch ? ['--branch', source.branch] : [];
    // A local repository is cloned whole (git ignores --depth there, and says so).
    const shallow = isLocalGitUrl(source.url) ? [] : ['--depth', '1'];
    // Beside the last checkout, which a failed clone leaves as it was: a redeploy still rebuilds it.
    const next = join(into, 'source.next');
    await rm(next, { recursive: true, force: true });
    await mkdir(into, { recursive: true });
    try {
      await withAuth(into, source, options.secrets, (env) => runTool('git', ['clone', ...shallow, '--single-branch', ...branch, '--', source.url, next], { ...run, env }));
    } catch (error) {
      await rm(next, { recursive: true, force: true });
      throw error;
    }
    await rm(dir, { recursive: true, force: true });
    await rename(next, dir);
  } else {
    options.log('Rebuilding the source fetched by the last deploy');
  }
  return revisionOf(dir, run);
}

async function revisionOf(dir: string, run: { signal: AbortSignal; log: (line: string) => void }): Promise<Fetched> {
  const revision = (await runTool('git', ['rev-parse', 'HEAD'], { ...run, cwd: dir, quiet: true })).trim();
  run.log(`Revision ${revision}`);
  return { dir, revision };
}

/** What git needs to reach the source: its ssh key, or its basic-auth header. */
const authEnv = async (into: string, source: GitSource, secrets: SecretBox): Promise<NodeJS.ProcessEnv> =>
  source.sshKey ? sshEnv(into, secrets.open(source.sshKey)) : source.basicAuth ? basicAuthEnv(source.basicAuth) : {};

/**
 * Runs git's `work` with what it needs to reach the source, and no transport it does not need: the
 * network ones, and `file` only for a source on this host (which only an admin saves), so that a
 * redirect, a submodule or a remote helper (`ext::` runs a command) cannot make a clone read this
 * host's repositories. A key written for it is removed after, however it ends.
 */
async function withAuth<T>(into: string, source: GitSource, secrets: SecretBox, work: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  try {
    return await work({ ...await authEnv(into, source, secrets), GIT_ALLOW_PROTOCOL: allowedGitProtocols(source.url) });
  } finally {
    await rm(join(into, KEY_FILE), { force: true });
  }
}

/**
 * The keys a clone or fetch stopped by a crash left in the source folders, removed when the reactors
 * start: before any clone of theirs runs, and whatever a killed process's git still tries.
 */
export async function removeLeftKeys(sourcesDir: string): Promise<void> {
  const folders = await readdir(sourcesDir).catch(() => []);
  await Promise.all(folders.map((folder) => rm(join(sourcesDir, folder, KEY_FILE), { force: true })));
}

/** The key in a file only the engine's user reads, for the clone only (removed right after it). */
async function sshEnv(into: string, privateKey: string): Promise<NodeJS.ProcessEnv> {
  const keyFile = join(into, KEY_FILE);
  await writeFile(keyFile, privateKey.endsWith('\n') ? privateKey : `${privateKey}\n`, { mode: 0o600 });
  return {
    GIT_SSH_COMMAND: `ssh -i ${keyFile} -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=${join(into, 'known_hosts')}`,
  };
}
