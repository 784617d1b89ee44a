// What each operation does: the contract's table of summaries covers every operation and names no
// operation that does not exist; the API document carries each one (`summary` its lead sentence,
// `description` the whole); and the reference page, rendered by a real headless Chromium, shows it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { contract, operations } from '@berth/shared/contract/index';
import { leadOf, SUMMARIES, summaryOf } from '@berth/shared/contract/summaries';
import { openApiDocument } from '@berth/command-api/openapi/document';
import { referencePage } from '@berth/command-api/openapi/page';

const run = promisify(execFile);

/** One operation of the document, as much of it as these tests read. */
interface DocumentedOperation { operationId: string; summary: string; description: string }
type Paths = Record<string, Record<string, DocumentedOperation>>;

const documented = (document: Record<string, unknown>, name: string): DocumentedOperation => {
  const item = (document.paths as Paths)[`/api/${name}`];
  assert.ok(item, `no path for ${name}`);
  const [operation] = Object.values(item);
  return operation!;
};

/** The rendered section of one operation: a failed match then shows that, not the whole page. */
function sectionOf(dom: string, name: string): string {
  const start = dom.indexOf(`<section class="operation" id="op-${name}">`);
  assert.ok(start >= 0, `no section for ${name}`);
  return dom.slice(start, dom.indexOf('</section>', start) + '</section>'.length);
}

/** Mentions of `<group>.<procedure>` for a group of the contract. */
const mentionedOperations = (text: string): string[] =>
  [...text.matchAll(/\b([a-z][a-zA-Z0-9]*)\.([a-zA-Z][a-zA-Z0-9]*)\b/g)]
    .filter(([, group]) => Object.hasOwn(contract, group!))
    .map(([mention]) => mention);

/** Operations a newcomer could not tell apart from their names: each must be described. */
const NAMED = {
  'application.reload': /Restarts the application's running tasks without a rebuild/,
  'compose.randomizeCompose': /Adds `-<prefix>` to the name of every service, named volume and network/,
  'backup.manualBackupDbgamma': /Runs the dbgamma backup now and answers the run once it ended/,
  'events.follow': /server-sent events with `accept: text\/event-stream`, else a long poll/,
  'dbepsilon.create': /defaults to `dbepsilon:8`/,
} as const;

describe('the summaries of the operations', () => {
  it('describe every operation of the contract, and only those', () => {
    const names = operations.map((operation) => operation.name).sort();
    assert.deepEqual(Object.keys(SUMMARIES).sort(), names);
    for (const name of names) {
      const summary = summaryOf(name);
      assert.ok(summary !== undefined && summary.trim() !== '', `${name} has no summary`);
      assert.equal(summary, summary.trim(), `${name}: spaces around the summary`);
      assert.match(summary, /\.$/, `${name}: a summary is whole sentences`);
      assert.notEqual(summary.replace(/\.$/, ''), name, `${name}: its summary is only its name`);
      assert.ok(summary.length <= 400, `${name}: a summary is a sentence or two (${summary.length} characters)`);
      assert.ok(summary.startsWith(leadOf(summary)), `${name}: its lead is its first sentence`);
    }
    assert.equal(summaryOf('application.nothing'), undefined);
    assert.equal(summaryOf('toString'), undefined);
  });

  it('name no operation that does not exist', () => {
    const names = new Set(operations.map((operation) => operation.name));
    const unknown = Object.entries(SUMMARIES).flatMap(([name, summary]) =>
      mentionedOperations(summary).filter((mention) => !names.has(mention)).map((mention) => `${name} names ${mention}`));
    assert.deepEqual(unknown, []);
    // The check finds what it looks for.
    assert.deepEqual(mentionedOperations('see `compose.deploy`, then deployment.logs; not x-berth.signature'), ['compose.deploy', 'deployment.logs']);
  });

  it('are in the API document: summary the lead sentence, description the whole', () => {
    const document = openApiDocument('test');
    for (const operation of operations) {
      const { summary, description } = documented(document, operation.name);
      assert.equal(description, SUMMARIES[operation.name as keyof typeof SUMMARIES], operation.name);
      assert.equal(summary, leadOf(description), operation.name);
    }
    for (const [name, says] of Object.entries(NAMED)) assert.match(documented(document, name).description, says, name);
    assert.equal(documented(document, 'application.reload').summary,
      'Restarts the application\'s running tasks without a rebuild and answers the record once the engine did it (status `done`).');
  });

  it('are shown on the reference page rendered in headless Chromium, `code` as code', { timeout: 60_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'berth-reference-'));
    try {
      const page = join(folder, 'reference.html');
      writeFileSync(page, referencePage(openApiDocument('test')));
      const { stdout } = await run('chromium', [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage',
        '--no-first-run', `--user-data-dir=${join(folder, 'profile')}`, '--dump-dom', pathToFileURL(page).href,
      ], { timeout: 50_000, maxBuffer: 64 * 1024 * 1024 });
      // Only the script writes the summaries into the sections: their presence proves it ran.
      assert.equal((stdout.match(/<p class="summary">/g) ?? []).length, operations.length);
      assert.match(sectionOf(stdout, 'application.reload'),
        /^<section[^>]*><h3>.*?<\/h3><p class="summary">Restarts the application's running tasks without a rebuild and answers the record once the engine did it \(status <code>done<\/code>\)\. <code>appName<\/code> must be/);
      assert.match(sectionOf(stdout, 'backup.manualBackupDbgamma'), /<\/h3><p class="summary">Runs the dbgamma backup now/);
      assert.match(sectionOf(stdout, 'events.follow'), /<\/h3><p class="summary">Follows the selection live: server-sent events with <code>accept: text\/event-stream<\/code>/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
