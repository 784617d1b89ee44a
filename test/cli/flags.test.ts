// Flags typed by an operation's input schema, as `berth <group> <operation>` reads them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contract } from '@berth/shared/contract/index';
import type { Operation } from '@berth/shared/contract/operation';
import { inputFrom, parseArgs, UsageError } from '@berth/shared/cli/flags';

const inputOf = (operation: Operation, ...argv: string[]) => inputFrom(operation.input, parseArgs(argv).flags, new Set());
/** A usage error (the CLI exits 2) whose message matches. */
const refuses = (operation: Operation, argv: string[], message: RegExp) =>
  assert.throws(() => inputOf(operation, ...argv), (error) => error instanceof UsageError && message.test(error.message));

const logs = contract.deployment.logs;
const update = contract.application.update;
const externalPort = contract.dbalpha.saveExternalPort;

test('a two-valued true/false choice is a switch: bare, negated, or with its word', () => {
  assert.deepEqual(inputOf(logs, '--deployment-id', 'd', '--follow'), { deploymentId: 'd', follow: 'true' });
  assert.deepEqual(inputOf(logs, '--follow', 'false', '--deployment-id', 'd'), { follow: 'false', deploymentId: 'd' });
  assert.deepEqual(inputOf(logs, '--no-follow', '--deployment-id', 'd'), { follow: 'false', deploymentId: 'd' });
});

test('a number flag takes a plain decimal only, an integer where the contract says so', () => {
  assert.deepEqual(inputOf(externalPort, '--dbalpha-id', 'x', '--external-port', '8080'), { dbalphaId: 'x', externalPort: 8080 });
  assert.deepEqual(inputOf(externalPort, '--dbalpha-id', 'x', '--external-port', 'null'), { dbalphaId: 'x', externalPort: null });
  for (const raw of ['Infinity', '0x10', '1e1', ' 8080 ', '', '80.5', '-']) {
    refuses(externalPort, ['--external-port', raw], /^--external-port is a number \(an integer\), not "/);
  }
  assert.deepEqual(inputOf(update, '--cpu-limit', '0.5', '--memory-limit', '-.25'), { cpuLimit: 0.5, memoryLimit: -0.25 });
  refuses(update, ['--cpu-limit', '1e1'], /^--cpu-limit is a number, not "1e1"$/);
});

test('a nullable boolean takes a following true, false or null, and only those words', () => {
  assert.deepEqual(inputOf(update, '--auto-deploy', 'null'), { autoDeploy: null });
  assert.deepEqual(inputOf(update, '--auto-deploy', 'false', '--enabled'), { autoDeploy: false, enabled: true });
  // Any other word after a switch is refused as its value, named, rather than left as a stray word.
  refuses(update, ['--enabled', 'web'], /^--enabled must be true or false \(got web\); null clears it$/);
  refuses(logs, ['--follow', 'yes'], /^--follow must be true or false \(got yes\)$/);
});

test('--no- turns off a switch only, never another field', () => {
  assert.deepEqual(inputOf(update, '--no-auto-deploy'), { autoDeploy: false });
  refuses(update, ['--no-description'], /^--no-description: only a true\/false field/);
  refuses(update, ['--no-replicas'], /^--no-replicas: only a true\/false field/);
});
