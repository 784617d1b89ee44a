// The fingerprint decides whether a start rebuilds the read models: it must stay the same for the
// same code however it runs (tsx, or the esbuild bundle of `pnpm start`), or every switch between
// the two would rebuild them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { projections } from './catalogue.ts';
import { fingerprintOf } from './fingerprint.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
describe('the fingerprint of what builds the read models', () => {
  it('is the same for the same code, under tsx and from an esbuild bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-fingerprint-'));
    try {
      const entry = join(dir, 'print.ts');
      const source = (file: string) => JSON.stringify(join(ROOT, 'projections/src', file));
      writeFileSync(entry, `import { projections } from ${source('catalogue.ts')};\nimport { fingerprintOf } from ${source('fingerprint.ts')};\nconsole.log(fingerprintOf(projections));\n`);
      const bundle = join(dir, 'print.mjs');
      // Everything in the one file, so that it runs from the scratch folder: the functions are printed as in `pnpm start`'s bundle.
      await build({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent',
        // The packages written for CommonJS require node's own modules.
        banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
      const bundled = execFileSync(process.execPath, [bundle], { cwd: ROOT, encoding: 'utf8' }).trim();
      const underTsx = execFileSync(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, encoding: 'utf8' }).trim();
      assert.equal(bundled, fingerprintOf(projections));
      assert.equal(underTsx, fingerprintOf(projections));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
