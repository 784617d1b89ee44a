// A refused nested setting is named where it is wrong: an object sent for a nullable object field
// whose inside is wrong is told what is wrong inside ("healthCheckOrch.Test must be a list of
// strings", path healthCheckOrch.Test), not that it "must be an object or null". A value of the
// wrong kind altogether is still told the field's kind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('nested validation messages', () => {
  let berth: TestBerth;
  let applicationId: string;
  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'nested' });
    ({ applicationId } = await berth.ok('application.create', { name: 'web', projectId }));
  });
  after(() => berth.stop());

  /** The refusal's issues as [path, message], with the check that nothing was appended. */
  const issuesOf = async (input: Record<string, unknown>) => {
    const body = await berth.refused('application.update', { applicationId, ...input }, 400);
    assert.equal(body.code, 'BAD_REQUEST');
    return body.issues.map((issue: { path: string; message: string }) => [issue.path, issue.message]);
  };

  it('names the field inside a nullable object that is wrong', async () => {
    assert.deepEqual(await issuesOf({ healthCheckOrch: { Test: 'curl' } }), [
      ['healthCheckOrch.Test', 'healthCheckOrch.Test must be a list of strings'],
    ]);
    assert.deepEqual(await issuesOf({ healthCheckOrch: { Test: ['CMD', 'true'], Interval: '5s' } }), [
      ['healthCheckOrch.Interval', 'healthCheckOrch.Interval must be nanoseconds (1000000, 1 ms, is the least the orchestrator takes): 0 for its default, or an integer from 1000000 to 9007199254740991'],
    ]);
    assert.deepEqual(await issuesOf({ placementOrch: { Constraints: 'node.role==manager' } }), [
      ['placementOrch.Constraints', 'placementOrch.Constraints must be a list of strings'],
    ]);
    assert.deepEqual(await issuesOf({ labelsOrch: { a: 1 } }), [['labelsOrch.a', 'labelsOrch.a must be a string']]);
  });

  it('names an unknown or missing key inside, and each wrong field once', async () => {
    assert.deepEqual(await issuesOf({ restartPolicyOrch: { Condtion: 'any' } }), [
      ['restartPolicyOrch.Condtion', 'restartPolicyOrch.Condtion is not a known field'],
    ]);
    assert.deepEqual(await issuesOf({ placementOrch: { Preferences: [{ Spread: {} }] }, healthCheckOrch: { Test: [1] } }), [
      ['healthCheckOrch.Test.0', 'healthCheckOrch.Test.0 must be a string'],
      ['placementOrch.Preferences.0.Spread.SpreadDescriptor', 'placementOrch.Preferences.0.Spread.SpreadDescriptor is required'],
    ]);
    assert.deepEqual(await issuesOf({ networkOrch: [{ Aliases: ['a'] }] }), [['networkOrch.0.Target', 'networkOrch.0.Target is required']]);
  });

  it('says the kind of the field when the value is not of it', async () => {
    assert.deepEqual(await issuesOf({ healthCheckOrch: 'curl' }), [['healthCheckOrch', 'healthCheckOrch must be an object or null']]);
    assert.deepEqual(await issuesOf({ labelsOrch: ['a'] }), [['labelsOrch', 'labelsOrch must be an object or null']]);
    assert.deepEqual(await issuesOf({ networkOrch: { Target: 'net' } }), [['networkOrch', 'networkOrch must be a list of objects or null']]);
  });
});
