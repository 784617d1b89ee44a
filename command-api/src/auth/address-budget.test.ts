import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressBudget } from './address-budget.ts';

describe('the sign-in budget an address spends', () => {
  it('is the IPv4 address itself, whether it came over an IPv4 or an IPv6 socket', () => {
    assert.equal(addressBudget('203.0.113.7'), '203.0.113.7');
    assert.equal(addressBudget('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(addressBudget('::FFFF:203.0.113.7'), '203.0.113.7');
  });

  it("is an IPv6 address's /64, however the address is written", () => {
    const budget = addressBudget('2001:db8:1:2::1');
    assert.equal(budget, '2001:db8:1:2::/64');
    assert.equal(addressBudget('2001:0db8:0001:0002:ffff:eeee:dddd:cccc'), budget);
    assert.equal(addressBudget('2001:db8:1:2:0:0:0:9'), budget);
    assert.notEqual(addressBudget('2001:db8:1:3::1'), budget);
    assert.equal(addressBudget('::1'), '0:0:0:0::/64');
    assert.equal(addressBudget('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });

  it('leaves what is no address as it is', () => {
    assert.equal(addressBudget('local'), 'local');
  });
});
