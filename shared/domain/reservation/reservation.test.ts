import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { reservationAggregate, type ReservationEvent } from './reservation.ts';

const spec = specOf(reservationAggregate);
const key = 'hostPort:3000/tcp';
const heldBy = (owner: string): ReservationEvent => ({ type: 'NameReserved', data: { key, owner } });

describe('a reserved name', () => {
  it('is reserved once: again by its owner changes nothing, by another is CONFLICT naming the field', () => {
    spec.given([]).when({ type: 'Reserve', data: { key, owner: 'p1', field: 'publishedPort' } }).then([heldBy('p1')]);
    spec.given([heldBy('p1')]).when({ type: 'Reserve', data: { key, owner: 'p1', field: 'publishedPort' } }).then([]);
    spec.given([heldBy('p1')]).when({ type: 'Reserve', data: { key, owner: 'p2', field: 'publishedPort' } }).thenFails('CONFLICT', 'publishedPort');
  });

  it('passes from the holder it names to the new owner in one step, and from no other', () => {
    spec.given([heldBy('app')]).when({ type: 'Reserve', data: { key, owner: 'p1', field: 'publishedPort', from: 'app' } })
      .then([{ type: 'NameHandedOver', data: { key, owner: 'p1', from: 'app' } }]);
    spec.given([]).when({ type: 'Reserve', data: { key, owner: 'p1', field: 'publishedPort', from: 'app' } }).then([heldBy('p1')]);
    spec.given([heldBy('other')]).when({ type: 'Reserve', data: { key, owner: 'p1', field: 'publishedPort', from: 'app' } })
      .thenFails('CONFLICT', 'publishedPort');
  });

  it('is handed over only by its holder, and let go only by its holder', () => {
    spec.given([heldBy('p1')]).when({ type: 'HandOver', data: { key, owner: 'p1', to: 'app' } })
      .then([{ type: 'NameHandedOver', data: { key, owner: 'app', from: 'p1' } }]);
    spec.given([heldBy('p2')]).when({ type: 'HandOver', data: { key, owner: 'p1', to: 'app' } }).then([]);
    spec.given([heldBy('p2')]).when({ type: 'Release', data: { key, owner: 'p1' } }).then([]);
    spec.given([heldBy('p1')]).when({ type: 'Release', data: { key, owner: 'p1' } }).then([{ type: 'NameReleased', data: { key, owner: 'p1' } }]);
  });
});
