import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCommand } from '@berth/shared/domain/compose/command';
import { deployArguments } from './container-compose.ts';

const SHOP = { appName: 'shop-a1b2c3', composePath: 'my app.yml' };

describe("a container-compose service's command", () => {
  it('runs a foreground up detached, so that its deployment ends', () => {
    assert.deepEqual(deployArguments('up', SHOP), ['up', '-d']);
    assert.deepEqual(deployArguments('up --build web', SHOP), ['up', '-d', '--build', 'web']);
  });

  it('keeps an up that ends on its own as it was given', () => {
    for (const command of ['up -d web', 'up -dV', 'up --detach', 'up --wait', 'up --abort-on-container-exit', 'up --exit-code-from=test']) {
      assert.deepEqual(deployArguments(command, SHOP), command.split(' '), command);
    }
  });

  it("leaves the tool's other commands alone", () => {
    assert.deepEqual(deployArguments('pull web', SHOP), ['pull', 'web']);
  });

  it('runs the default up when no command is given', () => {
    assert.deepEqual(deployArguments('  ', SHOP), ['up', '-d', '--build', '--remove-orphans']);
  });

  it('takes the line getDefaultCommand shows, whole, as its words after the project and file Berth passes', () => {
    const shown = defaultCommand({ ...SHOP, composeType: 'container-compose' });
    assert.deepEqual(deployArguments(shown, SHOP), ['up', '-d', '--build', '--remove-orphans']);
    assert.deepEqual(deployArguments("docker-compose -p shop-a1b2c3 -f 'my app.yml' up web", SHOP), ['up', '-d', 'web']);
  });

  it('refuses another whole command line: Berth passes its own project and file', () => {
    assert.throws(() => deployArguments('docker compose -p other -f x.yml up -d', SHOP), /holds the compose tool's arguments \(for example "up -d web"\), not a whole command line/);
  });
});
