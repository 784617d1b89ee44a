// Settings of a compose service that could never deploy as given, or would silently run something
// else, refused on save with a 400 naming the field (as an application's are, see
// application/deployable.ts). Each is judged only when the change sets it, so a record saved before
// these rules stays editable.
import { badRequest } from '../../errors.ts';
import { mustCloseQuotes } from './values.ts';
import { composeFileProblem } from './compose-file.ts';
import { wholeCommandLineFault } from './command.ts';
import type { Compose, ComposePatch } from './compose.ts';
import { stackSpec } from './stack.ts';

/** A path whose last part is no file's name (`.`, `..`, `dir/`): the tool would be asked to read a folder. */
const FOLDER_PATH = /(^|\/)(\.{0,2})$/;
/** An absolute path (read from the repository's root all the same) or one with a `..` part (out of it). */
const OUTSIDE_PATH = /^\/|(^|\/)\.\.(\/|$)/;

function mustNameAFileInTheRepository(composePath: string): void {
  if (OUTSIDE_PATH.test(composePath)) {
    throw badRequest('composePath', 'must be a path relative to the repository\'s root, without ".." (for example docker-compose.yml or deploy/compose.yml)');
  }
  if (FOLDER_PATH.test(composePath)) {
    throw badRequest('composePath', 'must name the compose file (for example docker-compose.yml or deploy/compose.yml), not a folder');
  }
}

/**
 * A container-compose service's `command` as the tool would be given it: judged when it, or the
 * type that runs it, changes (a stack does not use it, so getDefaultCommand's stack line is kept).
 */
function mustBeToolArguments(current: Compose, patch: ComposePatch): void {
  // A patch may carry a field as undefined (not sent): the record's value stands.
  const next = {
    composeType: patch.composeType ?? current.composeType, command: patch.command ?? current.command,
    appName: patch.appName ?? current.appName, composePath: patch.composePath ?? current.composePath,
  };
  const changed = (patch.command !== undefined && patch.command !== current.command)
    || (patch.composeType !== undefined && patch.composeType !== current.composeType);
  if (!changed || next.composeType !== 'container-compose' || next.command.trim() === '') return;
  mustCloseQuotes('command', next.command);
  const fault = wholeCommandLineFault(next.command, next);
  if (fault) throw badRequest('command', fault);
}

type StackSettings = Pick<Compose, 'composeFile' | 'composeType' | 'sourceType' | 'appName'>;

/**
 * A stored (`raw`) stack file judged by its deploy's own rules, without the env (see stackSpec's
 * `save`): a fault the deploy would fail on is refused now. A file from git is judged at its deploy,
 * the repository can change it; the empty text a service starts with is saved as ever.
 */
export function mustDeployAsAStack(record: StackSettings): void {
  if (record.composeType !== 'stack' || record.sourceType !== 'raw' || record.composeFile.trim() === '') return;
  stackSpec(record.composeFile, { appName: record.appName, judging: 'save' });
}

/** The stack file judged when the change sets what it is, or whether and under which name it deploys as one. */
function mustStayAStack(current: Compose, patch: ComposePatch): void {
  const fields = ['composeFile', 'composeType', 'sourceType', 'appName'] as const;
  if (!fields.some((field) => patch[field] !== undefined && patch[field] !== current[field])) return;
  mustDeployAsAStack({
    composeFile: patch.composeFile ?? current.composeFile, composeType: patch.composeType ?? current.composeType,
    sourceType: patch.sourceType ?? current.sourceType, appName: patch.appName ?? current.appName,
  });
}

/** The change as given, once every setting it makes could deploy on the record as it would become. */
export function mustStayDeployable(current: Compose, patch: ComposePatch): ComposePatch {
  if (patch.composeFile !== undefined) {
    const problem = composeFileProblem(patch.composeFile);
    if (problem) throw badRequest('composeFile', problem);
  }
  if (patch.composePath !== undefined && patch.composePath !== current.composePath) mustNameAFileInTheRepository(patch.composePath);
  mustBeToolArguments(current, patch);
  mustStayAStack(current, patch);
  return patch;
}
