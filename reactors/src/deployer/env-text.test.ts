// An env text reads the same for an application (the deployer's list) as for a compose service
// or a database (their map): escapes in double quotes, a comment after an unquoted value, export.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envMap } from '@berth/shared/domain/compose/values';
import { parseEnv } from './env.ts';

describe('an env text, for every kind of service', () => {
  it('reads each line the same for an application as for a compose service or a database', () => {
    const text = 'A="x\\ny"\nB=v # note\nexport C=\'c d\'\n# a comment\n\nD=plain\n';
    const expected = { A: 'x\ny', B: 'v', C: 'c d', D: 'plain' };
    assert.deepEqual(envMap(text), expected);
    assert.deepEqual(parseEnv(text), Object.entries(expected).map(([key, value]) => `${key}=${value}`));
  });
});
