// A record kept from before a nullable field existed answers that field as null, not a 500: the
// belt for read models that older code projected (the projections rebuild them at start).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { serializerOf } from '@berth/command-api/serialization';
import { DeploymentRecord } from '@berth/shared/contract/records';

const record = {
  deploymentId: 'd1', applicationId: 'a1', composeId: null, kind: 'deploy', status: 'done', title: 'Deploy', trigger: 'api',
  accountId: null, revision: null, image: null, rollbackOf: null, reason: null, cancelRequested: false, statusBefore: null,
  createdAt: '2026-01-01T00:00:00.000Z', startedAt: null, finishedAt: null,
};

describe('answers of records that lack a nullable field', () => {
  it('a deployment recorded before databaseId and databaseType answers them as null', () => {
    const written = JSON.parse(serializerOf(Type.Array(DeploymentRecord))([record]));
    assert.deepEqual(written, [{ ...record, databaseId: null, databaseType: null }]);
  });

  it('a field that cannot be null is still required', () => {
    const { title: _title, ...withoutTitle } = record;
    assert.throws(() => serializerOf(DeploymentRecord)({ ...withoutTitle, databaseId: null, databaseType: null }), /"title" is required/);
  });
});

describe('answers of optional nullable fields', () => {
  it('an optional field that is absent stays absent', () => {
    const schema = Type.Object({ a: Type.String(), b: Type.Optional(Type.Union([Type.String(), Type.Null()])) });
    assert.equal(serializerOf(schema)({ a: 'x' }), '{"a":"x"}');
  });
});
