import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deployArguments } from './container-compose.ts';

describe("a container-compose service's command", () => {
  it('runs a foreground up detached, so that its deployment ends', () => {
    assert.deepEqual(deployArguments('up'), ['up', '-d']);
    assert.deepEqual(deployArguments('up --build web'), ['up', '-d', '--build', 'web']);
  });

  it('keeps an up that ends on its own as it was given', () => {
    for (const command of ['up -d web', 'up -dV', 'up --detach', 'up --wait', 'up --abort-on-container-exit', 'up --exit-code-from=test']) {
      assert.deepEqual(deployArguments(command), command.split(' '), command);
    }
  });

  it("leaves the tool's other commands alone", () => {
    assert.deepEqual(deployArguments('pull web'), ['pull', 'web']);
  });

  it('runs the default up when no command is given', () => {
    assert.deepEqual(deployArguments('  '), ['up', '-d', '--build', '--remove-orphans']);
  });
});
