// A reservation above its limit: the engine takes the pair, then no task of it can run as asked
// (it keeps a reservation it may not use). Refused on save, judged on the record as it would become.
import { badRequest } from '../errors.ts';

type Resources = Partial<Record<'memoryReservation' | 'memoryLimit' | 'cpuReservation' | 'cpuLimit', number | null>>;

const PAIRS = [['memoryReservation', 'memoryLimit'], ['cpuReservation', 'cpuLimit']] as const;

/**
 * BAD_REQUEST naming the reservation when the change leaves it above its limit (0 or null is no
 * limit). A pair the change leaves as it is is not judged: a record saved before stays editable.
 */
export function mustReserveWithinLimits(current: Resources, change: Resources): void {
  for (const [reservationField, limitField] of PAIRS) {
    const changes = (field: keyof Resources) => change[field] !== undefined && change[field] !== current[field];
    if (!changes(reservationField) && !changes(limitField)) continue;
    const reservation = change[reservationField] !== undefined ? change[reservationField] : current[reservationField];
    const limit = change[limitField] !== undefined ? change[limitField] : current[limitField];
    if (reservation && limit && reservation > limit) {
      throw badRequest(reservationField, `must be at most ${limitField} (${limit}): a reservation above its limit could never be used`);
    }
  }
}
