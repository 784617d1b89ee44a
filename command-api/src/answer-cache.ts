// The dashboard's queries, kept written: while the read store's version stays, an answer is
// the same for every caller who may see the same things, so it is serialised once, not per request.
import type { Operation } from '@berth/shared/contract/operation';
import type { ReadStore } from '@berth/shared/ports/read-store';
import type { Actor } from './context.ts';
import { ReadModelMemo } from './read-model-memo.ts';
import { withheldKey } from './auth/withheld.ts';

/**
 * Queries whose answers are read models only, filtered by what the caller may see and nothing else
 * (no engine, file or clock): those may be reused. Authorization still runs for every request.
 */
const READ_MODEL_QUERIES = new Set([
  'project.one', 'project.all', 'application.one', 'compose.one',
  ...['dbalpha', 'dbbeta', 'dbgamma', 'dbdelta', 'dbepsilon'].map((engine) => `${engine}.one`),
]);

/** Answers kept per operation at most, and their bytes at most; past either the oldest go. */
const KEPT = 1024;
const KEPT_BYTES = 8 * 1024 * 1024;

/** What the answer depends on of the caller: an admin sees everything, a user its access lists and the fields it may see. */
const sightOf = (actor: Actor | null) => (!actor || actor.rol === 'admin'
  ? 'all'
  : `${actor.permissions.accesedProjects.join(',')}|${actor.permissions.accesedServices.join(',')}|${withheldKey(actor)}`);

export class AnswerCache {
  private constructor(private readonly answers: ReadModelMemo<string | Buffer>) {}

  static for(store: ReadStore, operation: Operation): AnswerCache | null {
    return READ_MODEL_QUERIES.has(operation.name) ? new AnswerCache(new ReadModelMemo<string | Buffer>(store, KEPT, (body) => Buffer.byteLength(body), KEPT_BYTES)) : null;
  }

  /** The kept answer, or the one `write` gives now, as bytes: a large answer is then neither encoded nor measured again per request. */
  answer(input: Record<string, unknown>, actor: Actor | null, write: () => Promise<string>): Promise<string | Buffer> {
    return this.answers.get(`${JSON.stringify(input)}\u0000${sightOf(actor)}`, async () => Buffer.from(await write()));
  }
}
