import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import { mustBeEndpoint, mustNameBucket } from './endpoint.ts';

/** An object-storage bucket backups are uploaded to. */
export interface Destination {
  destinationId: string;
  name: string;
  /** The key id is an identifier, like a user name: kept in clear so the log stays auditable. */
  accessKey: string;
  bucket: string;
  region: string;
  endpoint: string;
  /** Sealed by the handler: the log never holds the secret key in clear. */
  secretAccessKey: Sealed;
  createdAt: string;
}

export type DestinationCommand =
  | { type: 'CreateDestination'; data: Destination }
  | { type: 'UpdateDestination'; data: Pick<Destination, 'destinationId'> & Partial<Omit<Destination, 'destinationId' | 'createdAt'>> }
  | { type: 'RemoveDestination'; data: { destinationId: string } };

export type DestinationEvent =
  | { type: 'DestinationCreated'; data: Destination }
  | { type: 'DestinationUpdated'; data: Pick<Destination, 'destinationId'> & Partial<Destination> }
  | { type: 'DestinationRemoved'; data: { destinationId: string } };

const LABEL = 'Destination';

export const destinationAggregate: Aggregate<Destination, DestinationCommand, DestinationEvent> = {
  name: 'destination',
  idField: 'destinationId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'DestinationCreated': return { ...event.data };
      case 'DestinationUpdated': return state && { ...state, ...event.data };
      case 'DestinationRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateDestination':
        mustNotExist(state, LABEL, 'destinationId');
        mustBeEndpoint(command.data.endpoint);
        mustNameBucket(command.data.bucket);
        return [{ type: 'DestinationCreated', data: command.data }];
      case 'UpdateDestination': {
        const destination = mustExist(state, 'destinationId', LABEL);
        if (command.data.endpoint !== undefined) mustBeEndpoint(command.data.endpoint);
        mustNameBucket(command.data.bucket);
        return updated('DestinationUpdated', 'destinationId', destination.destinationId, destination, command.data);
      }
      case 'RemoveDestination':
        mustExist(state, 'destinationId', LABEL);
        return [{ type: 'DestinationRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
