// The forge port over the reference forge's REST API (app JWT → installation access token →
// `installation/repositories`, `repos/{owner}/{repo}`, `repos/{owner}/{repo}/branches`).
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { ForgeError, type Forge, type ForgeApp, type ForgeRepository } from '../../ports/forge.ts';
import { messageOf } from '../../errors.ts';

const TIMEOUT_MS = 15_000;
const PAGE = 100;
// A forge that failed (no answer, or one that is not what its API answers) is told apart from
// its refusals by the status a gateway would answer: the API answers either as an outage.
const NO_ANSWER = 503;
const BAD_ANSWER = 502;

interface RepositoryBody { name: string; owner: { login: string }; clone_url: string }

/** What an endpoint answers: named for the error, and checked, since a forge may answer anything. */
interface Expected<T> { readonly what: string; readonly fits: (body: unknown) => body is T }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRepository = (value: unknown): value is RepositoryBody =>
  isRecord(value) && typeof value.name === 'string' && typeof value.clone_url === 'string' && isRecord(value.owner) && typeof value.owner.login === 'string';

const TOKEN: Expected<{ token: string }> = {
  what: 'an installation token', fits: (body): body is { token: string } => isRecord(body) && typeof body.token === 'string' && body.token !== '',
};
const REPOSITORY_LIST: Expected<{ repositories: RepositoryBody[] }> = {
  what: 'a repository list',
  fits: (body): body is { repositories: RepositoryBody[] } => isRecord(body) && Array.isArray(body.repositories) && body.repositories.every(isRepository),
};
const REPOSITORY: Expected<RepositoryBody> = { what: 'a repository', fits: isRepository };
const BRANCH_LIST: Expected<Array<{ name: string }>> = {
  what: 'a branch list',
  fits: (body): body is Array<{ name: string }> => Array.isArray(body) && body.every((branch) => isRecord(branch) && typeof branch.name === 'string'),
};

const repositoryOf = (body: RepositoryBody): ForgeRepository => ({ name: body.name, owner: body.owner.login, url: body.clone_url });

/** The app's JWT: issued a minute in the past (clock skew), valid for nine minutes (the forge allows ten). */
async function appJwt(app: ForgeApp): Promise<string> {
  let key;
  try {
    key = createPrivateKey(app.privateKey);
  } catch {
    throw new ForgeError('the forge app\'s private key is not a PEM private key');
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(app.appId).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(key);
}

/**
 * One segment of an API path. Encoding keeps `/`, `?` and `#` inside it, but a URL resolves a `.`
 * or `..` segment, so `repos/../x` would ask another endpoint: no owner, repository or installation
 * is named so, and the forge is not asked.
 */
function segment(value: string, what: string): string {
  if (value === '.' || value === '..') throw new ForgeError(`no ${what} is named ${value}`, 404);
  return encodeURIComponent(value);
}

async function call<T>(app: ForgeApp, path: string, authorization: string, expected: Expected<T>, method = 'GET'): Promise<T> {
  const url = `${app.apiUrl.replace(/\/+$/, '')}${path}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method, signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { authorization, accept: 'application/vnd.github+json', 'user-agent': 'berth' },
    });
    text = await response.text();
  } catch (error) {
    throw new ForgeError(`the forge API at ${app.apiUrl} did not answer: ${messageOf(error)}`, NO_ANSWER);
  }
  if (!response.ok) {
    const reason = (() => { try { return String((JSON.parse(text) as { message?: unknown }).message ?? text); } catch { return text; } })();
    throw new ForgeError(`the forge answered ${response.status} to ${method} ${path}: ${reason.slice(0, 200)}`, response.status);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!expected.fits(body)) throw new ForgeError(`the forge answered something that is not ${expected.what} to ${method} ${path}`, BAD_ANSWER);
  return body;
}

export const restForge: Forge = {
  async installationToken(app) {
    const body = await call(app, `/app/installations/${segment(app.installationId, 'installation')}/access_tokens`, `Bearer ${await appJwt(app)}`, TOKEN, 'POST');
    return body.token;
  },
  async repositories(app, token) {
    const found: ForgeRepository[] = [];
    for (let page = 1; ; page++) {
      const body = await call(app, `/installation/repositories?per_page=${PAGE}&page=${page}`, `token ${token}`, REPOSITORY_LIST);
      found.push(...body.repositories.map(repositoryOf));
      if (body.repositories.length < PAGE) return found;
    }
  },
  async repository(app, token, owner, name) {
    return repositoryOf(await call(app, `/repos/${segment(owner, 'owner')}/${segment(name, 'repository')}`, `token ${token}`, REPOSITORY));
  },
  async branches(app, token, owner, name) {
    const found: string[] = [];
    for (let page = 1; ; page++) {
      const body = await call(app, `/repos/${segment(owner, 'owner')}/${segment(name, 'repository')}/branches?per_page=${PAGE}&page=${page}`, `token ${token}`, BRANCH_LIST);
      found.push(...body.map((branch) => branch.name));
      if (body.length < PAGE) return found;
    }
  },
};
