import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { specOf } from '../testing.ts';
import { registryAggregate, type Registry } from './registry.ts';

const spec = specOf(registryAggregate);
const created: Registry = {
  registryId: 'r1', registryName: 'images', username: 'bot', password: 'enc:v1:a.b.c' as Sealed,
  registryUrl: 'registry.example.com', registryType: 'cloud', imagePrefix: null, adminId: 'a1',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('registry decider', () => {
  it('creates a registry at a host, a host with a port, an https URL or the default registry', () => {
    for (const registryUrl of ['registry.example.com', 'localhost:5000', 'https://ghcr.io/team', '']) {
      spec.given([]).when({ type: 'CreateRegistry', data: { ...created, registryUrl } })
        .then([{ type: 'RegistryCreated', data: { ...created, registryUrl } }]);
    }
  });
  it('refuses a registryUrl that names no reachable host, naming registryUrl', () => {
    for (const registryUrl of ['not a url', 'ftp://files.example.com', 'bot:pw@registry.example.com', 'host:99999', '-bad-']) {
      spec.given([]).when({ type: 'CreateRegistry', data: { ...created, registryUrl } }).thenFails('BAD_REQUEST', 'registryUrl');
    }
  });
  it('refuses a registryUrl path or an imagePrefix that cannot start an image name, naming the field, on create and update', () => {
    spec.given([]).when({ type: 'CreateRegistry', data: { ...created, registryUrl: 'registry.example.com/../x' } }).thenFails('BAD_REQUEST', 'registryUrl');
    spec.given([]).when({ type: 'CreateRegistry', data: { ...created, imagePrefix: 'Team Space' } }).thenFails('BAD_REQUEST', 'imagePrefix');
    spec.given([{ type: 'RegistryCreated', data: created }])
      .when({ type: 'UpdateRegistry', data: { registryId: 'r1', imagePrefix: 'x'.repeat(200) } }).thenFails('BAD_REQUEST', 'imagePrefix');
    spec.given([{ type: 'RegistryCreated', data: created }])
      .when({ type: 'UpdateRegistry', data: { registryId: 'r1', imagePrefix: 'team/apps' } })
      .then([{ type: 'RegistryUpdated', data: { registryId: 'r1', imagePrefix: 'team/apps' } }]);
  });
  it('refuses to create a registry twice', () => {
    spec.given([{ type: 'RegistryCreated', data: created }]).when({ type: 'CreateRegistry', data: created })
      .thenFails('CONFLICT', 'registryId');
  });
  it('records only the fields an update changes, and checks a new registryUrl', () => {
    spec.given([{ type: 'RegistryCreated', data: created }])
      .when({ type: 'UpdateRegistry', data: { registryId: 'r1', registryName: 'images', adminId: 'a2' } })
      .then([{ type: 'RegistryUpdated', data: { registryId: 'r1', adminId: 'a2' } }]);
    spec.given([{ type: 'RegistryCreated', data: created }])
      .when({ type: 'UpdateRegistry', data: { registryId: 'r1', registryUrl: 'a b' } }).thenFails('BAD_REQUEST', 'registryUrl');
  });
  it('answers NOT_FOUND naming registryId for one that was removed', () => {
    spec.given([{ type: 'RegistryCreated', data: created }, { type: 'RegistryRemoved', data: { registryId: 'r1' } }])
      .when({ type: 'UpdateRegistry', data: { registryId: 'r1', username: 'x' } }).thenFails('NOT_FOUND', 'registryId');
  });
});
