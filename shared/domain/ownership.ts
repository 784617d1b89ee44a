// Berth finds a service's engine objects by the service's appName, which its user chooses: a name
// alone may be an operator's swarm service, stack or compose project. Berth acts on an object it
// finds by name only when the object carries the mark Berth put on it for that very service.

/** The label naming, on each engine object Berth makes, the service it made it for; its value is the service's id. */
export const APPLICATION_MARK = 'berth.applicationId';
export const DATABASE_MARK = 'berth.databaseId';
export const COMPOSE_MARK = 'berth.composeId';
/** Databases' services carried only their engine's kind before they carried their id. */
export const LEGACY_DATABASE_LABEL = 'berth.database';

const MARK_LABELS = [APPLICATION_MARK, DATABASE_MARK, COMPOSE_MARK] as const;

/**
 * The label on the network Berth makes for the proxy (BERTH_PROXY_NETWORK). Deliberately no mark:
 * every application joins that network, and a network carrying a service's mark is that service's
 * alone (a deploy refuses to join it, a removal of the service may remove it).
 */
export const PROXY_NETWORK_LABEL = 'berth.proxyNetwork';

type Labels = Readonly<Record<string, string>> | null | undefined;

export interface OwnerMark {
  readonly label: string;
  readonly value: string;
  /** A label and value that objects made before marks existed carry instead: accepted only when no mark label is there. */
  readonly legacy?: { readonly label: string; readonly value: string };
}

/** Whether an object carries any service's mark. */
export const carriesAMark = (labels: Labels): boolean => MARK_LABELS.some((label) => labels?.[label] !== undefined);

/** Whether an object with `labels` is the one Berth made for the service `mark` names. */
export function isMarked(labels: Labels, mark: OwnerMark): boolean {
  if (labels?.[mark.label] === mark.value) return true;
  return !carriesAMark(labels) && mark.legacy !== undefined && labels?.[mark.legacy.label] === mark.legacy.value;
}

/**
 * Whether a volume or network is the one Berth made for `mark`'s service. The engine cannot label
 * one after it was made, so one made before the marks carries none: it is the service's only while
 * the service's own service uses it (`usedByOwnService`), which is how Berth's first deploy left
 * it. The legacy label of services never was on these objects: it does not count here.
 */
export const isOwnedObject = (labels: Labels, mark: OwnerMark, usedByOwnService: boolean): boolean =>
  labels?.[mark.label] === mark.value || (usedByOwnService && !carriesAMark(labels));

/** The labels that mark an object Berth makes for `mark`'s service (volumes, networks, images it builds). */
export const markLabels = (mark: OwnerMark): Record<string, string> => ({ [mark.label]: mark.value });

/** The local repositories Berth keeps applications' images in: `berth/<appName>`. */
export const LOCAL_IMAGES = 'berth/';

/** The repository an image reference names, without its tag or digest (and Docker Hub's implicit host). */
const repositoryOf = (reference: string) => reference.replace(/@.*$/, '').replace(/:[^:/]*$/, '').replace(/^docker\.io\/(library\/)?/, '');

/**
 * Why the service `ownerId` may not run the engine's copy of `reference` (found there, not pulled):
 * Berth built it for another service (it carries that one's mark, as an image built from a private
 * repository does), or it is in Berth's local repositories, where an application's images are kept
 * under its name (pulled with its own registry login, or built), and not in `own`. Null when it may:
 * any other image on the engine is the operator's to share.
 */
export function othersImageReason(reference: string, labels: Labels, ownerId: string, own: string | null): string | null {
  if (carriesAMark(labels) && !isMarkedForId(labels, ownerId)) return `${reference} is an image Berth built for another service: only that service runs it`;
  const repository = repositoryOf(reference);
  if (repository.startsWith(LOCAL_IMAGES) && repository !== own) return `${reference} is where Berth keeps another application's images: only that application runs them`;
  return null;
}

/** The mark a spec Berth writes carries (with its legacy form when the spec carries that too); null for a spec of no service. */
export function markIn(labels: Labels): OwnerMark | null {
  const label = MARK_LABELS.find((candidate) => labels?.[candidate] !== undefined);
  if (!label) return null;
  const legacy = label === DATABASE_MARK && labels?.[LEGACY_DATABASE_LABEL] !== undefined
    ? { label: LEGACY_DATABASE_LABEL, value: labels[LEGACY_DATABASE_LABEL]! } : undefined;
  return { label, value: labels![label]!, ...(legacy && { legacy }) };
}

/**
 * Labels that Berth, the engine's stacks and the compose tool find objects by: a user's labels (an
 * application's labelsOrch, a compose file's) may not set them, or they could claim another
 * service's objects, or put their own among another's (a stack lists its services by namespace).
 */
const RESERVED_LABEL = /^(berth\.|com\.docker\.(stack|compose|swarm)\.)/;

/** The labels of `labels` a user may not set. */
export const reservedLabelsIn = (labels: Readonly<Record<string, string>>): string[] =>
  Object.keys(labels).filter((label) => RESERVED_LABEL.test(label));

/** Labels a user gave, without those Berth and the engine find objects by. */
export const withoutReservedLabels = (labels: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(labels).filter(([label]) => !RESERVED_LABEL.test(label)));

/** Whether an object is marked for the service whose id is `ownerId`, whatever its kind (ids are unique across kinds). */
export const isMarkedForId = (labels: Labels, ownerId: string): boolean =>
  MARK_LABELS.some((label) => labels?.[label] === ownerId);

export type EngineObjectKind = 'swarm service' | 'stack' | 'compose project' | 'volume' | 'network';

/** Why a deploy touches nothing: the name is taken on the engine by an object that is not this service's. */
export const foreignObjectReason = (kind: EngineObjectKind, name: string): string =>
  `a ${kind} named ${name} exists on the engine that Berth did not make for this service: rename the service or remove it`;
