// The read models for operators (beyond the spec; admin only): how far each one is.
import { Type } from '@sinclair/typebox';
import { group, get, none } from './operation.ts';
import { Closed, Num, Str } from './schema.ts';

export const projections = group('projections', {
  /** Each projection's checkpoint, and how far behind the log's head it is in events and in seconds. */
  status: get(none, Type.Array(Closed({ name: Str(), position: Num(), head: Num(), lagEvents: Num(), lagSeconds: Num() }))),
});
