// dockerode writes a name into its request path as it is. The engine answers a path with an empty,
// `.` or `..` segment by redirecting to the cleaned path, and dockerode follows that redirect to a
// host read from the path, outside any request's error handling: the process dies of the failed
// lookup (measured: `container.getConfig` of `../../etc/passwd` ended Berth with ENOTFOUND). A `?`
// or `#` would end the path early, and a `/` would add segments of its own. So a name from outside
// goes into a path only when it is spelled as the engine spells its names; any other names nothing
// the engine holds, and is answered as the engine answers an unknown name.

/** One name as the engine spells it; it cannot be empty, `.` or `..`. */
const COMPONENT = '[A-Za-z0-9][A-Za-z0-9_.-]*';
/** Containers, services, nodes, networks and volumes: an id (hex) or a name. */
const OBJECT_NAME = new RegExp(`^${COMPONENT}$`);
/** An image reference: [host[:port]/]path components, then an optional tag and digest. */
const REFERENCE = new RegExp(`^${COMPONENT}(?::[0-9]+)?(?:/${COMPONENT})*(?::[A-Za-z0-9_][A-Za-z0-9_.-]*)?(?:@[A-Za-z0-9]+:[A-Fa-f0-9]+)?$`);

/** The engine's own answer for an unknown name, so callers treat both alike. */
const unknown = (kind: string, name: string) => Object.assign(new Error(`No such ${kind}: ${name}`), { statusCode: 404, json: { message: `No such ${kind}: ${name}` } });

/** `name` as a request path may carry it, or the engine's 404 thrown. */
export function pathName(kind: 'container' | 'service' | 'node' | 'network' | 'volume' | 'image', name: string): string {
  if ((kind === 'image' ? REFERENCE : OBJECT_NAME).test(name)) return name;
  throw unknown(kind, name);
}
