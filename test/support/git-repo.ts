// A local git repository the tests commit to, serving a page that says which version it is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TEST_IMAGE } from './engine.ts';

export const GOOD_CONTAINERFILE = `FROM ${TEST_IMAGE}\nCOPY index.html /www/index.html\n`;

export interface GitRepo {
  readonly dir: string;
  /** Commits the files given (path → text) on `main`; answers the commit id. */
  commit(files: Record<string, string>, message?: string): string;
  remove(): void;
}

export function gitRepo(): GitRepo {
  const dir = mkdtempSync(join(tmpdir(), 'berth-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.email', 'test@berth.test');
  git('config', 'user.name', 'Berth test');
  return {
    dir,
    commit(files, message = 'change') {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      git('add', '--all');
      git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
