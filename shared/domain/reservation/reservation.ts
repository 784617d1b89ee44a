// A name that must be unique across aggregates (an appName, an email) is claimed in a stream of
// its own, `reservation-<scope>:<name>`, appended with "no stream" or the revision that was read.
import { conflict } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';

export interface Reservation {
  key: string;
  owner: string;
}

export type ReservationCommand =
  /** Held by `from`, it passes to `owner` as a hand-over does. */
  | { type: 'Reserve'; data: { key: string; owner: string; field: string; from?: string } }
  | { type: 'Release'; data: { key: string; owner: string } }
  /** From `owner` to `to`, with no moment in between when another could claim it. */
  | { type: 'HandOver'; data: { key: string; owner: string; to: string } };

export type ReservationEvent =
  | { type: 'NameReserved'; data: Reservation }
  | { type: 'NameReleased'; data: Reservation }
  | { type: 'NameHandedOver'; data: Reservation & { from: string } };

/**
 * `hostPort` names `<port>/<protocol>`: database external ports and application published ports
 * share the host's ports. `basicAuth` names `<applicationId>/<username>`. `backupFolder` names
 * `<destinationId>/<folder>`, owned by the database whose backups write it and never let go (see
 * domain/backup/folder.ts): its dumps are restored and pruned by any backup in the folder.
 * `proxyName` names `<protocol>.<kind>.<name>` (`http.routers.web`): the proxy keeps one definition
 * of a name across every application's file. `deployToken` names `<kind>/<digest>` (`compose/…`):
 * a keyed digest of a service's deploy token, never the token; unique within a kind, as each kind
 * has its own push route. `backupSlot` names a backup folder as `backupFolder` does, owned by the
 * one backup in it (domain/backup/folder.ts). `targetPort` names `<applicationId>/<port>/<protocol>`,
 * owned by the port of that application publishing the container port (domain/port/port.ts).
 * `backupRun` names a backup, owned by its run under way or last run (shared/backups/run-claim.ts).
 */
export const reservationKey = (
  scope: 'appName' | 'email' | 'instance' | 'hostPort' | 'basicAuth' | 'backupFolder' | 'proxyName' | 'deployToken'
    | 'backupSlot' | 'targetPort' | 'backupRun', name: string,
) => `${scope}:${name}`;

/** A host port as reserved: the port and its protocol (a database's external port is TCP). */
export const hostPort = (port: number, protocol = 'tcp') => `${port}/${protocol}`;

export const reservationAggregate: Aggregate<Reservation, ReservationCommand, ReservationEvent> = {
  name: 'reservation',
  idField: 'key',
  label: 'Reservation',
  evolve(_state, event) {
    switch (event.type) {
      case 'NameReserved': return { ...event.data };
      case 'NameReleased': return null;
      case 'NameHandedOver': return { key: event.data.key, owner: event.data.owner };
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Reserve': {
        const { key, owner, field, from } = command.data;
        if (state?.owner === owner) return [];
        if (state && state.owner === from) return [{ type: 'NameHandedOver', data: { key, owner, from } }];
        if (state) throw conflict(`${field} "${key.slice(key.indexOf(':') + 1)}" is already taken`, field);
        return [{ type: 'NameReserved', data: { key, owner } }];
      }
      case 'Release':
        return state?.owner === command.data.owner ? [{ type: 'NameReleased', data: command.data }] : [];
      case 'HandOver': {
        const { key, owner, to } = command.data;
        return state?.owner === owner && owner !== to ? [{ type: 'NameHandedOver', data: { key, owner: to, from: owner } }] : [];
      }
      default: return exhaustive(command);
    }
  },
};
