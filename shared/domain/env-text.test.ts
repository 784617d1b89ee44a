// One reading of an env text for every kind of service: double-quoted values scanned once, so an
// escaped quote does not end them and an escaped backslash is one backslash; faults name the line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as envText from './env-text.ts';

const { envValue } = envText;

describe('an env value in double quotes', () => {
  it('takes \\" as a quote inside the value, not as its end', () => {
    assert.equal(envValue(String.raw`"say \"hi\" now"`), 'say "hi" now');
  });

  it('takes \\\\ as one backslash, so \\\\n is a backslash then n, not a newline', () => {
    assert.equal(envValue(String.raw`"C:\\new"`), String.raw`C:\new`);
    assert.equal(envValue(String.raw`"ends in \\"`), 'ends in \\');
  });

  it('takes \\n as a newline', () => {
    assert.equal(envValue(String.raw`"a\nb"`), 'a\nb');
  });

  it('keeps an unknown escape as written, backslash and all', () => {
    assert.equal(envValue(String.raw`"\d+ \t \$HOME"`), String.raw`\d+ \t \$HOME`);
  });

  it('is not closed by an escaped quote at its end, nor by nothing', () => {
    assert.equal(envValue(String.raw`"open \"`), null);
    assert.equal(envValue('"open'), null);
  });

  it('allows only a comment after its closing quote', () => {
    assert.equal(envValue('"v" # note'), 'v');
    assert.equal(envValue('"v"#note'), 'v');
    assert.equal(envValue('"v" tail'), null);
  });
});

describe('an env value in single quotes or none', () => {
  it('keeps a single-quoted value as written, backslashes too', () => {
    assert.equal(envValue(String.raw`'C:\\new \n'`), String.raw`C:\\new \n`);
  });

  it('ends an unquoted value before a " #" comment, and trims it', () => {
    assert.equal(envValue(' v w # note '), 'v w');
    assert.equal(envValue('a#b'), 'a#b');
  });
});

describe('an env text', () => {
  it('reads its entries, skipping blank and comment lines and dropping export', () => {
    assert.deepEqual(envText.readEnvText('export A="x\\ny"\r\n# c\n\nB=v # note\nC=\'c d\''), {
      entries: [['A', 'x\ny'], ['B', 'v'], ['C', 'c d']],
    });
  });

  it('names the first faulty line and its key, never its value', () => {
    const notALine = envText.readEnvText('GOOD=1\nsecret-value here\n1BAD=x');
    assert.ok('fault' in notALine);
    assert.match(notALine.fault, /^env line 2 is not KEY=value/);
    assert.doesNotMatch(notALine.fault, /secret-value/);
    const open = envText.readEnvText('A=1\nTOKEN="secret-value');
    assert.ok('fault' in open);
    assert.match(open.fault, /^env line 2 \(TOKEN\): the quoted value is not closed/);
    assert.doesNotMatch(open.fault, /secret-value/);
  });

  it('reads an empty or null text as no entries', () => {
    assert.deepEqual(envText.readEnvText(''), { entries: [] });
    assert.deepEqual(envText.readEnvText(null), { entries: [] });
  });
});
