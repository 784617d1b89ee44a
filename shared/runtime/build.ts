// `pnpm start` runs Berth from one build of its TypeScript, not through a loader that compiles each
// module as it is imported: the loader's own thread and its caches cost about 35 MB of resident
// memory and a second of start-up. Berth's workspace packages are bundled (code split at the lazy
// imports, so a client the process never uses is still never loaded); every other package stays
// an import, pinned to the file that package resolves to from its importer, as Node would resolve
// it: pnpm gives each workspace package its own dependencies, so no single folder sees them all.
// Prints the built entry's path.
import { isBuiltin } from 'node:module';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD_DIR = join(ROOT, '.build');

const SKIP = 'berth-resolving';

/** Third-party imports left to Node at run time, at the exact file Node would load. */
const pinnedPackages: Plugin = {
  name: 'pinned-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === SKIP || args.path.startsWith('@berth/')) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const found = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: SKIP });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: found.path, external: true };
    });
  },
};

/**
 * A module that finds files beside itself (the compose templates) keeps its own location: in the
 * build, `import.meta.url` would be the bundle's. The entry keeps the bundle's, as it asks whether
 * it is the process's entry.
 */
const ownLocation = (entry: string): Plugin => ({
  name: 'own-location',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path === entry) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
});

/** Builds `entry` (a path to a TypeScript module) into the build folder; answers the built file's path. */
export async function buildEntry(entry: string): Promise<string> {
  const absolute = resolve(entry);
  await build({
    entryPoints: [absolute],
    outdir: BUILD_DIR,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    // As Node resolves a package: its `main`, and the conditions of an import (no bundler-only `module`).
    mainFields: ['main'],
    conditions: [],
    outExtension: { '.js': '.mjs' },
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [pinnedPackages, ownLocation(absolute)],
  });
  return join(BUILD_DIR, `${basename(absolute, extname(absolute))}.mjs`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await buildEntry(process.argv[2] ?? join(ROOT, 'shared/runtime/roles-cli.ts')));
}
