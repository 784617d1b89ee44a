// Settings of an application the engine would take but could never run as given, refused on save
// with a 400 naming the field instead of failing (or hanging) every deploy. Each is judged only when
// the change sets it, so a record saved before these rules stays editable.
import { badRequest } from '../../errors.ts';
import { mustReserveWithinLimits } from '../resource-bounds.ts';
import { mustBeImageReference } from '../image-reference.ts';
import type { Application } from './record.ts';

/** The engine runs `CMD <command…>` and `CMD-SHELL <command>`, turns checks off with `NONE`; an empty Test inherits the image's. */
function mustBeARunnableProbe(test: readonly string[] | undefined): void {
  if (test === undefined || test.length === 0 || test[0] === 'NONE') return;
  if ((test[0] === 'CMD' || test[0] === 'CMD-SHELL') && test.length > 1) return;
  throw badRequest('healthCheckOrch.Test', 'must be empty (the image\'s check), ["NONE"], ["CMD", <command>, <argument>…] or ["CMD-SHELL", <command>]');
}

/** An empty label key is kept by the engine but names nothing any tool can read or filter by. */
function mustNameEveryLabel(labels: Readonly<Record<string, string>> | null | undefined): void {
  if (labels && Object.keys(labels).some((key) => key.trim() === '')) throw badRequest('labelsOrch', 'must not have an empty key');
}

/** The change as given, once every setting it makes could deploy on the record as it would become. */
export function mustStayDeployable<C extends Partial<Application>>(current: Application | null, change: C): C {
  if (change.containerImage && change.containerImage !== current?.containerImage) mustBeImageReference('containerImage', change.containerImage);
  mustBeARunnableProbe(change.healthCheckOrch?.Test);
  mustNameEveryLabel(change.labelsOrch);
  if (current) mustReserveWithinLimits(current, change);
  return change;
}
