// The read models for operators (beyond the spec; admin only): how far each one is.
import { Type } from '@sinclair/typebox';
import { group, get, none, post } from './operation.ts';
import { Closed, MinStr, Nullable, Num, OneOf, Opt, Str } from './schema.ts';

export const projections = group('projections', {
  /** Each projection's checkpoint, and how far behind the log's head it is in events and in seconds. */
  status: get(none, Type.Array(Closed({ name: Str(), position: Num(), head: Num(), lagEvents: Num(), lagSeconds: Num() }))),
  /**
   * Rebuilds one read model (or all) while Berth serves: built beside the live one from position 0,
   * then switched in one transaction. Answers when done, or `running` past a bound.
   */
  rebuild: post(Closed({ name: Opt(MinStr()) }), Closed({
    rebuildId: Str(), name: Nullable(Str()), status: OneOf(['running', 'done'] as const), position: Num(), documents: Num(), ms: Num(),
  })),
});
