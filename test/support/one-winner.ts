// What a race on a rule the log decides must end in: one request wins, the others are refused.
import assert from 'node:assert/strict';

export interface RaceAnswer<B = Record<string, unknown>> {
  readonly status: number;
  readonly body: B & { issues?: Array<{ path?: string }> };
}

/** `count` requests made at once, the i-th by `make(i)`: their answers in order. */
export const times = <T>(count: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => make(i)));

/** The one answer that won (200); every other one is a 409 whose issues name exactly `field`. */
export function oneWinner<B>(answers: readonly RaceAnswer<B>[], field: string): RaceAnswer<B> {
  const winners = answers.filter((answer) => answer.status === 200);
  assert.equal(winners.length, 1, JSON.stringify(answers.map((answer) => answer.status)));
  for (const answer of answers.filter((a) => a.status !== 200)) {
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.issues?.map((issue) => issue.path), [field]);
  }
  return winners[0]!;
}
