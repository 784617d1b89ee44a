// Flags and help for fields named with acronyms (`customGitSSHKey`, `canAccessToAPI`): one word in
// help, matched as operation names are (dashes and case aside), the old spellings still taken; and
// help that says what a field takes in words, never a schema's internal format name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contract } from '@berth/shared/contract/index';
import type { Operation } from '@berth/shared/contract/operation';
import { inputFrom, parseArgs } from '@berth/shared/cli/flags';
import { usageOfGroup, usageOfOperation } from '@berth/shared/cli/help';

const inputOf = (operation: Operation, ...argv: string[]) => inputFrom(operation.input, parseArgs(argv).flags, new Set());
const operations = Object.values(contract as unknown as Record<string, Record<string, Operation>>).flatMap((group) => Object.values(group));

test('an acronym flag is one word, and every old spelling still names the field', () => {
  for (const flag of ['--custom-git-ssh-key', '--custom-git-s-s-h-key', '--customGitSSHKey', '--CUSTOM-GIT-SSH-KEY']) {
    assert.deepEqual(inputOf(contract.application.update, flag, 'key'), { customGitSSHKey: 'key' }, flag);
  }
  for (const flag of ['--can-access-to-api', '--can-access-to-a-p-i', '--canAccessToAPI']) {
    assert.deepEqual(inputOf(contract.admin.assignPermissions, flag, 'true'), { canAccessToAPI: true }, flag);
  }
  assert.deepEqual(inputOf(contract.admin.assignPermissions, '--no-can-access-to-api'), { canAccessToAPI: false });
  assert.deepEqual(inputOf(contract.application.one, '--application-id', 'a'), { applicationId: 'a' });
});

test('help prints acronyms as one word', () => {
  assert.match(usageOfOperation(contract.application.update), /^ {2}--custom-git-ssh-key\s/m);
  assert.match(usageOfGroup(Object.values(contract.admin)), /--can-access-to-api\b/);
  assert.match(usageOfGroup(Object.values(contract.auth)), /berth auth verify-login-2fa /);
  for (const operation of operations) {
    for (const flag of usageOfOperation(operation).match(/^ {2}--\S+/gm) ?? []) assert.doesNotMatch(flag, /-[a-z]-[a-z]-|[A-Z]/, operation.name);
  }
});

test('help says a least length in words and never shows an internal format name', () => {
  assert.match(usageOfOperation(contract.auth.verifyLogin2FA), /^ {2}--pin\s+required\s+string \(at least 6 characters\)$/m);
  for (const operation of operations) {
    assert.doesNotMatch(usageOfOperation(operation), /at-least-\d|whole-number-|\(date-time\)/, operation.name);
  }
  assert.match(usageOfOperation(contract.events.all), /^ {2}--limit\s+optional\s+whole number 1-1000\b/m);
});
