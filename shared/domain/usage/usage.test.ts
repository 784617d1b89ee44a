import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { usageAggregate, type Usage, type UsageWords } from './usage.ts';

const words: UsageWords = { label: 'Registry', field: 'registryId', users: 'application(s)' };
const usedBy = (users: string[]): Usage => ({ key: 'registry:r1', users, retired: false });
const refusal = (state: Usage, given: UsageWords): DomainError => {
  try {
    usageAggregate.decide({ type: 'Retire', data: { key: 'registry:r1', words: given, why: 'is in use' } }, state);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  assert.fail('the retirement was not refused');
};

describe('retiring a resource in use', () => {
  it('counts its users when the caller read no names', () => {
    const refused = refusal(usedBy(['a1', 'a2']), words);
    assert.equal(refused.code, 'CONFLICT');
    assert.equal(refused.issues[0]?.path, 'registryId');
    assert.match(refused.message, /is in use \(2 application\(s\)\)$/);
  });

  it('names the users whose names the caller read, up to five, and counts the rest', () => {
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'];
    const names = Object.fromEntries(ids.map((id) => [id, `shop-${id}`]));
    assert.match(refusal(usedBy(['a1']), { ...words, names }).message, /is in use \(1 application\(s\): shop-a1\)$/);
    assert.match(refusal(usedBy(ids), { ...words, names }).message,
      /is in use \(7 application\(s\): shop-a1, shop-a2, shop-a3, shop-a4, shop-a5 and 2 more\)$/);
    // One added after the names were read is counted, not named.
    assert.match(refusal(usedBy(['a1', 'new']), { ...words, names }).message, /is in use \(2 application\(s\): shop-a1 and 1 more\)$/);
  });

  it('retires a resource nobody uses', () => {
    assert.deepEqual(usageAggregate.decide({ type: 'Retire', data: { key: 'registry:r1', words, why: 'is in use' } }, usedBy([])),
      [{ type: 'UsageRetired', data: { key: 'registry:r1' } }]);
  });
});
