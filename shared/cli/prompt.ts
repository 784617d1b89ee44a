// What a command asks on the terminal when a flag it needs was left out (a password is better not
// typed on the command line, where the shell's history keeps it).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** A shell's exit status for a command ended by Ctrl-C (SIGINT). */
const INTERRUPTED = 130;

/**
 * Asks `question` on stderr and answers the line typed; undefined when stdin is no terminal (no one
 * to ask) or ended before an answer. With `hidden`, what is typed is not shown. Ctrl-C ends the
 * command, as it would anywhere else.
 */
export async function ask(question: string, { hidden }: { hidden: boolean }): Promise<string | undefined> {
  if (process.stdin.isTTY !== true) return undefined;
  // readline echoes what is typed to its output: for a hidden answer, to nowhere.
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!hidden) process.stderr.write(chunk);
      done();
    },
  });
  // The terminal is in raw mode from here on, so the question shows only once nothing typed is
  // echoed by the terminal itself; and Ctrl-C reaches readline, not the process.
  const lines = createInterface({ input: process.stdin, output, terminal: true });
  lines.once('SIGINT', () => {
    process.stderr.write('\n');
    process.exit(INTERRUPTED);
  });
  process.stderr.write(question);
  try {
    return await new Promise<string | undefined>((resolve) => {
      lines.once('close', () => resolve(undefined));
      lines.question('', resolve);
    });
  } finally {
    lines.close();
    if (hidden) process.stderr.write('\n');
  }
}
