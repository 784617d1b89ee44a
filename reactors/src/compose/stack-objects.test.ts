import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComposeDeps } from './deps.ts';
import { removeObjects } from './stack-objects.ts';

describe('a removed stack\'s secrets and configs', () => {
  it('are all removed but one another stack still uses (shared through name:), which stays without stopping the rest', async () => {
    const held = { secret: ['shop_a_1', 'shared_2', 'shop_b_3'], config: ['shop_c_4'] };
    const removed: string[] = [];
    const stacks = {
      objects: async (kind: 'secret' | 'config') => held[kind],
      removeObject: async (_kind: string, name: string) => {
        if (name === 'shared_2') throw new Error('secret shared_2 is in use by service other_web');
        removed.push(name);
        return true;
      },
    };
    await removeObjects({ stacks } as unknown as ComposeDeps, 'shop');
    assert.deepEqual(removed, ['shop_a_1', 'shop_b_3', 'shop_c_4']);
  });
});
