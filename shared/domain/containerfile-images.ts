// The images a containerfile builds on: each `FROM`, `COPY --from=`, `RUN --mount=…,from=` and the
// `# syntax=` frontend. The builder takes the engine's copy of each, so the deployer checks them as
// it checks an application's own image (ownership.ts, othersImageReason) before it builds.
// Berth passes the builder no build arguments: an ARG is its default, or nothing. A reference this
// cannot resolve (an ARG without a default, `${X:-word}` and the like, an ENV) is reported as such,
// to be refused: any of them could name another application's image.

export interface ContainerfileImages {
  /** Image references, with their ARGs resolved; earlier stages and `scratch` left out. */
  readonly images: readonly string[];
  /** References as written whose value cannot be told before the build. */
  readonly unresolved: readonly string[];
}

/** Variables in scope: a name declared without a value Berth can tell is null. */
type Scope = Map<string, string | null>;

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** `word` with its `$NAME`/`${NAME}` replaced from `scope`; null when any other `$` is left. */
function resolved(word: string, scope: Scope): string | null {
  let unknown = false;
  const value = word.replace(VARIABLE, (_match, braced: string | undefined, bare: string | undefined) => {
    const found = scope.get(braced ?? bare ?? '');
    if (found == null) unknown = true;
    return found ?? '';
  });
  return unknown || value.includes('$') ? null : value;
}

const unquoted = (text: string) => text.replace(/^(["'])(.*)\1$/s, '$2');

/** The parser directives at the top (`# escape=`, `# syntax=`), lower-cased by name. */
function directivesOf(lines: readonly string[]): Map<string, string> {
  const directives = new Map<string, string>();
  for (const line of lines) {
    const match = /^\s*#\s*([a-z]+)\s*=\s*(.*?)\s*$/i.exec(line);
    if (!match) break;
    directives.set(match[1]!.toLowerCase(), match[2]!);
  }
  return directives;
}

/** Instructions, continuation lines joined and comments dropped, as the builder reads them. */
function instructionsOf(lines: readonly string[], escape: string): string[] {
  const instructions: string[] = [];
  let pending = '';
  for (const line of lines) {
    // A comment line is dropped even in the middle of a continued instruction.
    if (/^\s*#/.test(line)) continue;
    // So is a blank one: the instruction goes on past it (`COPY \`, a blank line, `--from=…`).
    if (pending !== '' && line.trim() === '') continue;
    const trimmed = line.trimEnd();
    if (trimmed.endsWith(escape)) {
      pending += `${trimmed.slice(0, -1)} `;
      continue;
    }
    pending += line;
    if (pending.trim() !== '') instructions.push(pending.trim());
    pending = '';
  }
  if (pending.trim() !== '') instructions.push(pending.trim());
  return instructions;
}

/** The `--name=value` flags that open an instruction's arguments (later words are its command, not flags). */
function leadingFlags(words: readonly string[]): Array<[string, string]> {
  const flags: Array<[string, string]> = [];
  for (const word of words) {
    if (!word.startsWith('--')) break;
    const equals = word.indexOf('=');
    flags.push(equals === -1 ? [word.slice(2).toLowerCase(), ''] : [word.slice(2, equals).toLowerCase(), unquoted(word.slice(equals + 1))]);
  }
  return flags;
}

/** The `from=` of a `--mount` flag's comma-separated fields. */
const mountSource = (value: string): string | null => {
  const field = value.split(',').map((part) => unquoted(part.trim())).find((part) => /^from=/i.test(part));
  return field ? field.slice('from='.length) : null;
};

/** Reads the images `containerfile` builds on. */
export function imagesOf(containerfile: string): ContainerfileImages {
  const lines = containerfile.split(/\r?\n/);
  const directives = directivesOf(lines);
  const images: string[] = [];
  const unresolved: string[] = [];
  const stages: string[] = [];
  const globals: Scope = new Map();
  let scope: Scope | null = null;

  /** Records `word` as an image unless it names an earlier stage (by name, or by index when `byIndex`). */
  const reference = (word: string, variables: Scope, byIndex: boolean) => {
    const value = resolved(word, variables);
    if (value === null) return void unresolved.push(word);
    const lower = value.toLowerCase();
    if (lower === 'scratch' || stages.includes(lower) || (byIndex && /^\d+$/.test(value) && Number(value) < stages.length)) return;
    images.push(value);
  };

  const syntax = directives.get('syntax');
  if (syntax) reference(syntax, globals, false);
  for (const instruction of instructionsOf(lines, directives.get('escape') === '`' ? '`' : '\\')) {
    let words = instruction.split(/\s+/);
    // ONBUILD's instruction runs in the builds of images made FROM this one: it is read as this one's.
    while (words[0]?.toUpperCase() === 'ONBUILD') words = words.slice(1);
    const [keyword = '', ...rest] = words;
    const flags = leadingFlags(rest);
    switch (keyword.toUpperCase()) {
      case 'ARG': {
        const variables = scope ?? globals;
        for (const declaration of rest) {
          const equals = declaration.indexOf('=');
          const name = equals === -1 ? declaration : declaration.slice(0, equals);
          // Inside a stage, a bare `ARG NAME` brings in the global's default.
          const value = equals === -1 ? (scope ? globals.get(name) ?? null : null) : resolved(unquoted(declaration.slice(equals + 1)), variables);
          variables.set(name, value);
        }
        break;
      }
      case 'FROM': {
        const [image, as, name] = rest.slice(flags.length);
        if (image) reference(image, globals, false);
        if (as?.toUpperCase() === 'AS' && name) stages.push(name.toLowerCase());
        else stages.push(`\0stage ${stages.length}`);
        scope = new Map();
        break;
      }
      case 'COPY':
        for (const [flag, value] of flags) if (flag === 'from') reference(value, scope ?? globals, true);
        break;
      case 'RUN':
        for (const [flag, value] of flags) {
          const source = flag === 'mount' ? mountSource(value) : null;
          if (source !== null) reference(source, scope ?? globals, true);
        }
        break;
    }
  }
  return { images, unresolved };
}
