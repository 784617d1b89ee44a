// The engine's build output as deployment log lines: the classic builder cuts its `stream` text
// anywhere (measured: a thousand cuts mid-line in 20 MB of output), and the HTTP chunks anywhere,
// mid-character too. Each line the build printed must still be one line of the log, whole.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { followProgress } from '@berth/shared/adapters/docker/progress';

/** The engine's answer: each text a `stream` line, the bytes cut into chunks of `size`. */
function answer(texts: readonly string[], size: number): Readable {
  const bytes = Buffer.from(texts.map((stream) => `${JSON.stringify({ stream })}\r\n`).join(''));
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

describe('build output into log lines', () => {
  it('keeps a line whole that the builder cut across stream lines', async () => {
    const lines: string[] = [];
    await followProgress(answer(['Step 1/2 : FROM base', '\n', ' ---> Running in 0123456789ab\n', 'build li', 'ne 1 ok\nbuild line 2', ' ok\n', 'no newline at the end'], 7), (line) => lines.push(line));
    assert.deepEqual(lines, ['Step 1/2 : FROM base', ' ---> Running in 0123456789ab', 'build line 1 ok', 'build line 2 ok', 'no newline at the end']);
  });

  it('keeps characters whole that an HTTP chunk cut in two', async () => {
    const lines: string[] = [];
    const printed = Array.from({ length: 50 }, (_, index) => `${index} é€𝄞 ${'ü'.repeat(index)}.`);
    await followProgress(answer(printed.map((line) => `${line}\n`), 5), (line) => lines.push(line));
    assert.deepEqual(lines, printed);
  });

  it('passes on the line before an error, then the error', async () => {
    const lines: string[] = [];
    const stream = Readable.from([`${JSON.stringify({ stream: 'last words' })}\n${JSON.stringify({ error: 'failed', errorDetail: { message: 'failed' } })}\n`]);
    await assert.rejects(followProgress(stream, (line) => lines.push(line)), /failed/);
    assert.deepEqual(lines, ['last words', 'error: failed']);
  });
});
