// The proxy reads an application's dynamic configuration as a YAML file: one that does not parse
// would take the application's routes down, so it is refused before it is ever stored.
import { isMap, parseDocument } from 'yaml';
import { badRequest } from '../../errors.ts';

/** The text as given, when it is a YAML mapping (or empty); else BAD_REQUEST naming proxyConfig. */
export function checkProxyConfig(text: string): string {
  const document = parseDocument(text);
  const [error] = document.errors;
  if (error) throw badRequest('proxyConfig', `is not valid YAML: ${error.message.split('\n')[0]}`);
  if (document.contents !== null && !isMap(document.contents)) {
    throw badRequest('proxyConfig', 'must be a YAML mapping (routers, services, middlewares)');
  }
  return text;
}
