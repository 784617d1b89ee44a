// The template catalogue: one YAML data file per template in this folder (its compose file, the
// variables it needs, and what the catalogue shows). Read once, on first use.
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { randomPassword } from '../crypto/random-password.ts';
import { randomHex } from '../ids.ts';

export interface TemplateLinks {
  readonly github: string;
  readonly website: string;
  readonly docs: string;
}

/** What `compose.templates` lists. */
export interface TemplateSummary {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly links: TemplateLinks;
  readonly tags: readonly string[];
}

export interface Template extends TemplateSummary {
  /** Variable name → how its value is made: `password[:length]`, `hash:length`, `base64:bytes`, `username`, or a literal. */
  readonly variables: Readonly<Record<string, string>>;
  /** The compose file; it refers to the variables as `${NAME}`. */
  readonly compose: string;
}

const FOLDER = fileURLToPath(new URL('.', import.meta.url));
let loaded: readonly Template[] | null = null;

export function templates(): readonly Template[] {
  loaded ??= readdirSync(FOLDER).filter((file) => file.endsWith('.yml')).sort()
    .map((file) => parse(readFileSync(`${FOLDER}${file}`, 'utf8')) as Template);
  return loaded;
}

export const templateById = (id: string): Template | undefined => templates().find((template) => template.id === id);

export const summaryOf = ({ id, name, version, description, links, tags }: Template): TemplateSummary =>
  ({ id, name, version, description, links, tags });

/** One value for a variable, by its generator. */
function generate(spec: string): string {
  const [kind = '', size] = spec.split(':');
  const length = Number(size);
  switch (kind) {
    case 'password': return randomPassword(Number.isInteger(length) && length > 0 ? length : 32);
    case 'hash': return randomHex(Number.isInteger(length) && length > 0 ? length : 32);
    case 'base64': return randomBytes(Number.isInteger(length) && length > 0 ? length : 32).toString('base64');
    case 'username': return `user-${randomHex(8)}`;
    default: return spec;
  }
}

/** Fresh values for every variable of a template, as an env text (`NAME=value` a line). */
export function generatedEnv(template: Template): string {
  return Object.entries(template.variables).map(([name, spec]) => `${name}=${generate(spec)}`).join('\n');
}
