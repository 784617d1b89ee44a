// A service's removal takes several steps (its ports, its names, then the record), so it begins
// with a mark in the service's own stream, decided by the log like any change. A project being
// removed asks for the mark with its own id: a service that moved out meanwhile refuses it and is
// left to its move. Once marked, the service refuses every change but its removal, so no move can
// land between the mark and the delete; a removal that stopped part-way is finished by the API's
// next start (command-api/src/unfinished-removals.ts) or by removing it again, which the mark never blocks.
import { conflict } from '../errors.ts';
import { mustExist } from './decisions.ts';

/** A service's state while its removal is under way: the project it is being removed from. */
export interface BeingRemoved {
  removingFrom?: string;
}

/** `projectId`, when given, is the project being removed, which the service must still be in. */
export type BeginRemoval<K> = { type: 'BeginRemoval'; data: K & { projectId?: string } };
/** The mark: the service's removal has begun, from the project it is in. */
export type RemovalBegun<T extends string, K> = { type: T; data: K & { projectId: string } };

interface Service extends BeingRemoved {
  projectId: string;
}

/**
 * The mark, or none when it is there already (a removal begun again goes on); CONFLICT naming
 * projectId when the service is no longer in the project being removed.
 */
export function beginRemoval<T extends string, K extends object>(
  type: T, state: Service | null, data: K & { projectId?: string }, idField: string, label: string,
): RemovalBegun<T, K>[] {
  const service = mustExist(state, idField, label);
  if (data.projectId !== undefined && data.projectId !== service.projectId) {
    throw conflict(`is no longer this ${label.toLowerCase()}'s project: it moved out while that project was being removed`, 'projectId');
  }
  return service.removingFrom === undefined ? [{ type, data: { ...data, projectId: service.projectId } }] : [];
}

/**
 * CONFLICT naming the id field when the service is being removed: checked by a change before it
 * takes any claim (so a refusal appends nothing), and by the decider on every command.
 */
export function mustNotBeRemoving(state: BeingRemoved | null, idField: string, label: string): void {
  if (state?.removingFrom !== undefined) throw conflict(`names the ${label.toLowerCase()} being removed; only its removal can go on`, idField);
}

/** As mustNotBeRemoving, unless `command` is one of those it still decides (its removal, and what the reactors report of work already started). */
export function mustNotBeBeingRemoved(
  state: BeingRemoved | null, command: string, still: readonly string[], idField: string, label: string,
): void {
  if (!still.includes(command)) mustNotBeRemoving(state, idField, label);
}
