// The proxy reads an application's dynamic configuration as a YAML file: one that does not parse,
// or that the proxy's schema would refuse, would take the application's routes down, so it is
// refused before it is ever stored. The proxy reads every application's file from one folder and
// keeps only the first definition of a name, so a name Berth writes, or one another application's
// file defines, is refused too: it would silently replace one of the two.
import { parseDocument } from 'yaml';
import { badRequest, conflict } from '../../errors.ts';
import { yamlFault } from '../yaml-fault.ts';
import { berthPartNamed } from './proxy-names.ts';
import { isMap, proxyStructureFault } from './proxy-schema.ts';

/** A router, service or middleware a configuration defines, and where: `http.routers.web`. */
interface Defined { readonly name: string; readonly path: string }

/** Another application, as its proxy configuration's names are checked against. */
export interface OtherApplication { readonly appName: string; readonly proxyConfig: string | null }

const SECTIONS = ['http', 'tcp', 'udp'] as const;
const KINDS = ['routers', 'services', 'middlewares'] as const;

function definedIn(config: unknown): Defined[] {
  if (!isMap(config)) return [];
  return SECTIONS.flatMap((section) => KINDS.flatMap((kind) => {
    const names = isMap(config[section]) ? config[section][kind] : undefined;
    return isMap(names) ? Object.keys(names).map((name) => ({ name, path: `${section}.${kind}.${name}` })) : [];
  }));
}

/** A stored or given text as YAML; null when it is empty or does not parse (the decider refuses it, naming why). */
export function parsedConfig(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    const document = parseDocument(text);
    return document.errors.length > 0 ? null : document.toJS();
  } catch {
    return null;
  }
}

/** What a text defines; nothing when it does not parse. */
const definedInText = (text: string | null | undefined): Defined[] => definedIn(parsedConfig(text));

type BerthPart = NonNullable<ReturnType<typeof berthPartNamed>>;

/** What Berth writes each of its entries from: the settings a user changes instead of the entry. */
const SOURCES: Record<BerthPart, string> = {
  'service': 'ports',
  'basic-auth middleware': 'security users',
  'redirect middlewares': 'redirects',
};

/**
 * What to do about an entry of Berth's: the application's own one is typically written back as the
 * proxy read answered it, so it is left out; another application's name was picked by chance.
 */
const adviceOn = (own: boolean) => (own
  ? 'leave this entry out of the configuration you save (Berth writes it itself) and keep only your own routers, middlewares and services'
  : 'leave this entry out of the configuration you save, and give your own routers, middlewares and services other names');

function mustNotUseBerthNames(defined: readonly Defined[], appNames: readonly string[], own: boolean): void {
  for (const { name, path } of defined) {
    for (const appName of appNames) {
      const part = berthPartNamed(appName, name);
      if (part) {
        throw badRequest('proxyConfig', `${path}: the name is reserved for the ${part} Berth writes for application ${appName} `
          + `from its ${SOURCES[part]}; ${adviceOn(own)}`);
      }
    }
  }
}

/** The text as given, when it is valid YAML of the proxy's structure (or empty) defining none of Berth's names for `appName`; else BAD_REQUEST naming proxyConfig. */
export function checkProxyConfig(text: string, appName: string): string {
  const document = parseDocument(text);
  const [error] = document.errors;
  if (error) throw badRequest('proxyConfig', yamlFault(error));
  const config: unknown = document.toJS();
  const fault = proxyStructureFault(config);
  if (fault) throw badRequest('proxyConfig', fault);
  mustNotUseBerthNames(definedIn(config), [appName], true);
  return text;
}

/** Where a text defines its routers, services and middlewares (`http.routers.web`): the names it claims. */
export const definedNames = (text: string | null | undefined): string[] => definedInText(text).map(({ path }) => path);

/**
 * CONFLICT naming appName when another application's configuration defines a name Berth would write
 * for an application named `appName` (its service, its basic-auth or redirect middlewares): the
 * proxy would keep only one of the two, and the other application could take its traffic.
 */
export function mustNotBeNamedInOthers(appName: string, others: readonly OtherApplication[]): void {
  for (const other of others) {
    const clash = definedInText(other.proxyConfig).find(({ name }) => berthPartNamed(appName, name) !== null);
    if (clash) {
      throw conflict(`"${appName}" would name the ${berthPartNamed(appName, clash.name)} Berth writes as ${clash.name}, which another application's proxy configuration defines (${clash.path}); choose another appName`, 'appName');
    }
  }
}

/**
 * BAD_REQUEST naming proxyConfig when the text defines a name Berth writes for another
 * application; CONFLICT when another application's configuration defines one of its names.
 */
export function mustNotClashWithOthers(text: string, others: readonly OtherApplication[]): void {
  const defined = definedInText(text);
  mustNotUseBerthNames(defined, others.map((other) => other.appName), false);
  const taken = new Set(others.flatMap((other) => definedInText(other.proxyConfig).map(({ path }) => path)));
  const clash = defined.find(({ path }) => taken.has(path));
  if (clash) {
    throw conflict(`${clash.path}: another application's proxy configuration already defines this name, and the proxy would keep only one of the two; choose another name`, 'proxyConfig');
  }
}
