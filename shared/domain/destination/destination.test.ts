import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { specOf } from '../testing.ts';
import { destinationAggregate, type Destination } from './destination.ts';

const spec = specOf(destinationAggregate);
const created: Destination = {
  destinationId: 'd1', name: 'bucket', accessKey: 'AKIA', bucket: 'backups', region: 'us-east-1',
  endpoint: 'https://s3.example.com', secretAccessKey: 'enc:v1:a.b.c' as Sealed, createdAt: '2026-01-01T00:00:00.000Z',
};
const { createdAt: _createdAt, ...fields } = created;

describe('destination decider', () => {
  it('creates a destination that does not exist yet', () => {
    spec.given([]).when({ type: 'CreateDestination', data: created }).then([{ type: 'DestinationCreated', data: created }]);
  });
  it('refuses to create a destination twice', () => {
    spec.given([{ type: 'DestinationCreated', data: created }]).when({ type: 'CreateDestination', data: created })
      .thenFails('CONFLICT', 'destinationId');
  });
  it('records only the fields an update changes', () => {
    spec.given([{ type: 'DestinationCreated', data: created }])
      .when({ type: 'UpdateDestination', data: { ...fields, bucket: 'archive' } })
      .then([{ type: 'DestinationUpdated', data: { destinationId: 'd1', bucket: 'archive' } }]);
  });
  it('appends nothing for an update that changes nothing', () => {
    spec.given([{ type: 'DestinationCreated', data: created }]).when({ type: 'UpdateDestination', data: fields }).then([]);
  });
  it('refuses an empty bucket, naming it, on create and on update: every request names the bucket', () => {
    spec.given([]).when({ type: 'CreateDestination', data: { ...created, bucket: '' } }).thenFails('BAD_REQUEST', 'bucket');
    spec.given([{ type: 'DestinationCreated', data: created }]).when({ type: 'UpdateDestination', data: { ...fields, bucket: '' } })
      .thenFails('BAD_REQUEST', 'bucket');
  });
  it('answers NOT_FOUND naming destinationId for one that was removed', () => {
    spec.given([{ type: 'DestinationCreated', data: created }, { type: 'DestinationRemoved', data: { destinationId: 'd1' } }])
      .when({ type: 'RemoveDestination', data: { destinationId: 'd1' } }).thenFails('NOT_FOUND', 'destinationId');
  });
});
