import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { ProjectionRunner } from '@berth/projections/runner';
const stats = { flushes: 0, appends: 0, flushMs: 0, commits: 0, commitMs: 0, applies: 0, applyEvents: 0, applyMs: 0, waits: 0, reachedCalls: 0 };
const proto = SqliteEventStore.prototype as any;
const flush = proto.flush;
proto.flush = function () { const n = this.pending.length; const t = performance.now(); flush.call(this); stats.flushMs += performance.now() - t; stats.flushes++; stats.appends += n; };
const rproto = SqliteReadStore.prototype as any;
const commit = rproto.commit;
rproto.commit = async function (...a: unknown[]) { const t = performance.now(); await commit.apply(this, a); stats.commitMs += performance.now() - t; stats.commits++; };
const reached = rproto.reached;
rproto.reached = function (...a: unknown[]) { stats.reachedCalls++; return reached.apply(this, a); };
const apply = (ProjectionRunner.prototype as any).apply;
(ProjectionRunner.prototype as any).apply = async function (batch: unknown[]) { const t = performance.now(); await apply.call(this, batch); stats.applyMs += performance.now() - t; stats.applies++; stats.applyEvents += batch.length; };
if (process.env.PROBE_PARTIAL) {
  const finders = new Map<string, any>();
  rproto.ensureIndex = async function (collection: string, field: string) {
    this.db.exec(`CREATE INDEX IF NOT EXISTS docs_${collection}_by_${field} ON docs (json_extract(doc, '$.${field}')) WHERE collection = '${collection}'`);
  };
  rproto.find = async function (collection: string, field: string, value: string) {
    const key = `${collection}.${field}`;
    let st = finders.get(key);
    if (!st) { st = this.db.prepare(`SELECT doc FROM docs WHERE collection = '${collection}' AND json_extract(doc, '$.${field}') = ?`); finders.set(key, st); }
    return st.all(value).map((r: { doc: string }) => JSON.parse(r.doc));
  };
}
process.on('message', (m: { type: string }) => { if (m.type === 'rss') console.error(JSON.stringify(Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1048576)])))); });
await import('./server.ts');
