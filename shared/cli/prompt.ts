// What a command asks on the terminal when a flag it needs was left out (a password is better not
// typed on the command line, where the shell's history keeps it).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Whether there is someone to ask: stdin is a terminal. */
export const canAsk = (): boolean => process.stdin.isTTY === true;

/** Asks `question` on stderr and answers the line typed; with `hidden`, what is typed is not shown. */
export async function ask(question: string, { hidden }: { hidden: boolean }): Promise<string> {
  process.stderr.write(question);
  // readline echoes what is typed to its output: for a hidden answer, to nowhere.
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!hidden) process.stderr.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input: process.stdin, output, terminal: true });
  try {
    return await new Promise<string>((resolve) => lines.question('', resolve));
  } finally {
    lines.close();
    if (hidden) process.stderr.write('\n');
  }
}
