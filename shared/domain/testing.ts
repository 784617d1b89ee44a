// Given/when/then for deciders: tests read as the rule they prove.
import assert from 'node:assert/strict';
import type { DomainEvent } from '../events/event.ts';
import { DomainError, type ErrorCode } from '../errors.ts';
import { fold, type Aggregate } from './aggregate.ts';

export function specOf<S, C extends DomainEvent, E extends DomainEvent>(aggregate: Aggregate<S, C, E>) {
  return {
    given: (history: readonly E[]) => ({
      when: (command: C) => {
        const decide = () => aggregate.decide(command, fold(aggregate, history));
        return {
          then(expected: readonly E[]) {
            assert.deepEqual(decide(), expected);
          },
          thenFails(code: ErrorCode, field?: string) {
            assert.throws(decide, (error: unknown) => {
              assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
              assert.equal(error.code, code);
              if (field) assert.ok(error.issues.some((issue) => issue.path === field), `no issue names ${field}`);
              return true;
            });
          },
        };
      },
    }),
  };
}
