// `berth <group> <operation> --help` says what the operation does above its flags, and
// `berth <group> --help` says it under each operation's line: the contract's summaries, as the API
// reference shows them, without their `code` marks. Help is an answer (exit 0) and calls nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { contract, operations } from '@berth/shared/contract/index';
import type { Operation } from '@berth/shared/contract/operation';
import { leadOf, summaryOf } from '@berth/shared/contract/summaries';
import { kebab } from '@berth/shared/cli/flags';
import { usageOfGroup, usageOfOperation } from '@berth/shared/cli/help';
import { runBerth } from './berth-process.ts';
import { standIn } from './stand-in.ts';

const berth = standIn({});
const home = mkdtempSync(join(tmpdir(), 'berth-help-'));
const run = (...args: string[]) => runBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: berth.url(), BERTH_TOKEN: 'token' }, ...args);

before(() => berth.start());
after(async () => {
  await berth.stop();
  rmSync(home, { recursive: true, force: true });
});

/** A summary as the terminal shows it: no `code` marks, and compared without its line breaks. */
const plain = (text: string) => text.replaceAll('`', '').replace(/\s+/g, ' ').trim();
const summary = (operation: Operation) => summaryOf(operation.name) ?? assert.fail(`${operation.name} has no summary`);

/** The lines between an operation's help header and its flags: what it does. */
function describedIn(help: string): string[] {
  const lines = help.split('\n');
  const flags = lines.indexOf('');
  assert.ok(flags > 1, `no summary between the header and the flags:\n${help}`);
  return lines.slice(1, flags);
}

test('berth <group> <operation> --help says what the operation does, above its flags', async () => {
  for (const [group, procedure, operation] of [
    ['application', 'reload', contract.application.reload],
    ['compose', 'randomize-compose', contract.compose.randomizeCompose],
    ['backup', 'manual-backup-dbgamma', contract.backup.manualBackupDbgamma],
    ['deployments', 'logs', contract.deployment.logs],
  ] as const) {
    const help = await run(group, procedure, '--help');
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, new RegExp(`^berth ${operation.group} ${procedure} {2}\\(${operation.method} /api/${operation.name.replace('.', '\\.')}\\)\n`));
    const described = describedIn(help.stdout.trimEnd());
    assert.equal(plain(described.join(' ')), plain(summary(operation)));
    for (const line of described) assert.ok(line.length <= 100, `a line wider than 100 columns: ${line}`);
    assert.match(help.stdout, /^ {2}--json\s+optional\s+print the answer as JSON$/m);
  }
  const reload = await run('application', 'reload', '--help');
  assert.match(reload.stdout, /^Restarts the application's running tasks without a rebuild and answers the record once the engine/m);
  assert.match(reload.stdout, /^ {2}--application-id\s+required\s+string$/m);
  assert.equal(berth.seen.length, 0);
});

test('berth <group> --help says, under each operation\'s line, the lead of what it does', async () => {
  const help = await run('backup', '--help');
  assert.equal(help.code, 0, help.stderr);
  const lines = help.stdout.trimEnd().split('\n');
  for (const operation of Object.values(contract.backup)) {
    const at = lines.findIndex((line) => line.startsWith(`  berth backup ${kebab(operation.procedure)} `));
    assert.ok(at > 0, `no line for ${operation.name}`);
    const rest = lines.slice(at + 1);
    const end = rest.findIndex((line) => !line.startsWith('      '));
    const under = end === -1 ? rest : rest.slice(0, end);
    assert.equal(plain(under.join(' ')), plain(leadOf(summary(operation))), operation.name);
  }
  assert.match(help.stdout, /^ {2}berth backup manual-backup-dbgamma --backup-id\n {6}Runs the dbgamma backup now and answers the run once it ended/m);
  assert.equal(berth.seen.length, 0);
});

test('every operation\'s help and its group\'s carry its summary', () => {
  for (const operation of operations) {
    const described = describedIn(usageOfOperation(operation));
    assert.equal(plain(described.join(' ')), plain(summary(operation)), operation.name);
    const group = usageOfGroup(Object.values(contract[operation.group as keyof typeof contract]) as Operation[]);
    assert.ok(plain(group).includes(plain(leadOf(summary(operation)))), `${operation.name}: its lead is not in berth ${operation.group} --help`);
  }
});
