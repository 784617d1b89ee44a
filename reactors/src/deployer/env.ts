// An application's `env` text as the engine's list of KEY=value entries. Values are never echoed
// in an error: a line may hold a secret, so a fault names its line number and key only.

/** Raised for a fault of the user's input that the deployment reports as its reason. */
export class DeploymentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeploymentFailure';
  }
}

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

function unquote(raw: string, lineNumber: number, key: string): string {
  const value = raw.trim();
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return value.replace(/\s+#.*$/, '');
  const end = value.indexOf(quote, 1);
  if (end === -1 || value.slice(end + 1).trim().replace(/^#.*$/, '') !== '') {
    throw new DeploymentFailure(`env line ${lineNumber} (${key}): the quoted value is not closed where the line ends`);
  }
  const inner = value.slice(1, end);
  return quote === '"' ? inner.replace(/\\n/g, '\n').replace(/\\"/g, '"') : inner;
}

/** `KEY=value` a line; blank lines and `#` comments skipped; single or double quotes around a value. */
export function parseEnv(text: string | null): string[] {
  if (!text) return [];
  const entries: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const match = LINE.exec(trimmed);
    if (!match) {
      throw new DeploymentFailure(`env line ${index + 1} is not KEY=value (a key is letters, digits and _ . -, not starting with a digit)`);
    }
    const key = match[1]!;
    entries.push(`${key}=${unquote(match[2]!, index + 1, key)}`);
  });
  return entries;
}
