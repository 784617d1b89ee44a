// The proxy reads an application's dynamic configuration as a YAML file: one that does not parse,
// or that the proxy's schema would refuse, would take the application's routes down, so it is
// refused before it is ever stored.
import { parseDocument } from 'yaml';
import { badRequest } from '../../errors.ts';
import { proxyStructureFault } from './proxy-schema.ts';

/** The text as given, when it is valid YAML of the proxy's structure (or empty); else BAD_REQUEST naming proxyConfig. */
export function checkProxyConfig(text: string): string {
  const document = parseDocument(text);
  const [error] = document.errors;
  if (error) throw badRequest('proxyConfig', `is not valid YAML: ${error.message.split('\n')[0]}`);
  const fault = proxyStructureFault(document.toJS());
  if (fault) throw badRequest('proxyConfig', fault);
  return text;
}
