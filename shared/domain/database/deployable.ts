// Settings of a database the engine would take but could never run as given, refused on save with
// a 400 naming the field instead of failing every deploy (as an application's are, see
// application/deployable.ts). Each is judged only when the change sets it, so a record saved before
// these rules stays editable.
import { mustCloseQuotes } from '../compose/values.ts';
import { mustBeImageReference } from '../image-reference.ts';
import { mustReserveWithinLimits } from '../resource-bounds.ts';
import type { DatabaseFields } from './database.ts';

type Settings = Pick<DatabaseFields, 'containerImage' | 'command' | 'memoryReservation' | 'memoryLimit' | 'cpuReservation' | 'cpuLimit'>;

/** The change as given, once every setting it makes could deploy on the record as it would become. */
export function mustStayDeployable<C extends Partial<Settings>>(current: Settings, change: C): C {
  const changes = (field: 'containerImage' | 'command') => change[field] != null && change[field] !== current[field];
  if (changes('containerImage')) mustBeImageReference('containerImage', change.containerImage!);
  if (changes('command')) mustCloseQuotes('command', change.command!);
  mustReserveWithinLimits(current, change);
  return change;
}
