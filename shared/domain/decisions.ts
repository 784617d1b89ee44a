// Small checks every decider makes, so each decision reads as its rule and nothing else.
import { conflict, notFound } from '../errors.ts';

export function mustExist<S>(state: S | null, field: string, label: string): S {
  if (state === null) throw notFound(field, label);
  return state;
}

export function mustNotExist(state: unknown, label: string, field?: string): void {
  if (state !== null) throw conflict(`is already taken by another ${label.charAt(0).toLowerCase()}${label.slice(1)}`, field);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `patch` whose value differs from `state`; `null` when nothing would change. */
export function changes<S extends object>(state: S, patch: Partial<S>): Partial<S> | null {
  const changed: Partial<S> = {};
  let any = false;
  for (const key of Object.keys(patch) as (keyof S)[]) {
    const value = patch[key];
    if (value === undefined || same(state[key], value)) continue;
    changed[key] = value;
    any = true;
  }
  return any ? changed : null;
}

/** An event list of one `Updated` event carrying only what changed, or none. */
export function updated<S extends object, T extends string, K extends string>(
  type: T, idField: K, id: string, state: S, patch: Partial<S>,
): Array<{ type: T; data: Partial<S> & Record<K, string> }> {
  const changed = changes(state, patch);
  return changed ? [{ type, data: { ...changed, [idField]: id } as Partial<S> & Record<K, string> }] : [];
}
