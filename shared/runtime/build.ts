// `pnpm start` runs Berth from one build of its TypeScript, not through a loader that compiles each
// module as it is imported: the loader's own thread and its caches cost about 35 MB of resident
// memory and a second of start-up. Berth's workspace packages are bundled (code split at the lazy
// imports, so a client the process never uses is still never loaded); every other package stays
// an import, pinned to the file that package resolves to from its importer, as Node would resolve
// it: pnpm gives each workspace package its own dependencies, so no single folder sees them all.
// Each build lives in a folder named by its content (see `settle`). Prints the built entry's path.
import { isBuiltin } from 'node:module';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, transform, type Plugin } from 'esbuild';
import { settle } from './build-folders.ts';

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
 * A module that finds files beside itself (the compose templates, a test's fixtures) keeps its own
 * location: in the build, `import.meta.url` (and `.dirname`, `.filename`) would be the bundle's.
 * `keep`, an entry that asks whether it is the process's entry, keeps the bundle's. esbuild's own
 * `define` replaces them, so one spelled inside a string stays as written.
 */
const ownLocation = (keep: string | null): Plugin => ({
  name: 'own-location',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path === keep) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const { code } = await transform(source, {
        loader: 'ts', format: 'esm', sourcefile: args.path, sourcemap: 'inline',
        define: {
          'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
          'import.meta.dirname': JSON.stringify(dirname(args.path)),
          'import.meta.filename': JSON.stringify(args.path),
        },
      });
      return { contents: code, loader: 'js' };
    });
  },
});

export interface Built {
  readonly folder: string;
  /** The source files bundled in it (absolute paths): those a build kept for later depends on. */
  readonly sources: readonly string[];
}

/**
 * Builds `entries` (paths of TypeScript modules) into a folder of `buildDir` named by the build's
 * content, for the process `usedBy` to run. Each entry is built to its path below `base`, as a
 * `.mjs` file; `keep`: the module that keeps the bundle's `import.meta.url`.
 */
export async function buildEntries(entries: readonly string[], { base, buildDir = BUILD_DIR, usedBy = process.ppid, keep = null }: {
  base: string; buildDir?: string; usedBy?: number; keep?: string | null;
}): Promise<Built> {
  const absolute = entries.map((entry) => resolve(entry));
  // Only the folder's depth shows in the output (the source maps' relative paths): every build
  // folder is one level below `buildDir`, as this one is.
  const outdir = join(buildDir, 'build');
  const { outputFiles, metafile } = await build({
    entryPoints: absolute,
    outdir,
    outbase: resolve(base),
    write: false,
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
    metafile: true,
    logLevel: 'warning',
    plugins: [pinnedPackages, ownLocation(keep)],
  });
  const folder = await settle(buildDir, outputFiles.map((file) => ({ name: relative(outdir, file.path), contents: file.contents })), usedBy);
  return { folder, sources: Object.keys(metafile.inputs).map((input) => resolve(input)) };
}

/** Builds one entry module (see buildEntries); answers the built file's path. */
export async function buildEntry(entry: string, { buildDir = BUILD_DIR, usedBy = process.ppid } = {}): Promise<string> {
  const absolute = resolve(entry);
  const { folder } = await buildEntries([absolute], { base: dirname(absolute), buildDir, usedBy, keep: absolute });
  return join(folder, `${basename(entry, extname(entry))}.mjs`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // start.sh names itself as the user: it becomes the process that runs the build (exec).
  const usedBy = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
  console.log(await buildEntry(process.argv[2] ?? join(ROOT, 'shared/runtime/roles-cli.ts'), { usedBy }));
}
