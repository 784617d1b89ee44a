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
  /**
   * Variable name → how its value is made: `password[:length]`, `hash:length`, `base64:bytes`, `username`,
   * `port` (the host port its web entry point is published on), or a literal.
   */
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

/** Where a template's `port` is picked: above the usual service ports, below Linux's ephemeral range (32768 on). */
export const TEMPLATE_PORTS = { first: 20000, last: 32767 } as const;

/** A host port of TEMPLATE_PORTS at random: a candidate only, as whether Berth holds it is in the log. */
export const randomTemplatePort = (): number =>
  TEMPLATE_PORTS.first + Math.floor(Math.random() * (TEMPLATE_PORTS.last - TEMPLATE_PORTS.first + 1));

/** The variables of a template whose values are host ports. */
export const portVariables = (template: Template): string[] =>
  Object.entries(template.variables).filter(([, spec]) => spec === 'port').map(([name]) => name);

/** One value for a variable, by its generator; `port` answers the next host port. */
function generate(spec: string, port: () => number): string {
  const [kind = '', size] = spec.split(':');
  const length = Number(size);
  switch (kind) {
    case 'password': return randomPassword(Number.isInteger(length) && length > 0 ? length : 32);
    case 'hash': return randomHex(Number.isInteger(length) && length > 0 ? length : 32);
    case 'base64': return randomBytes(Number.isInteger(length) && length > 0 ? length : 32).toString('base64');
    case 'username': return `user-${randomHex(8)}`;
    case 'port': return String(port());
    default: return spec;
  }
}

/**
 * Fresh values for every variable of a template, as an env text (`NAME=value` a line). `port` gives
 * the host ports, in variable order: deployTemplate passes ones the log shows free; the default is a
 * mere candidate, enough where nothing is published.
 */
export function generatedEnv(template: Template, port: () => number = randomTemplatePort): string {
  return Object.entries(template.variables).map(([name, spec]) => `${name}=${generate(spec, port)}`).join('\n');
}
