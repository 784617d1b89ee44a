// ${VARIABLES} and env texts as docker reads them: required variables fail with their message, an
// unterminated "${" is refused, and an env line's `export ` and quotes are not part of it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { envMap, interpolate } from './values.ts';
import { stackSpec } from './stack.ts';
import { publishedPorts } from './ports.ts';

const refused = (run: () => unknown, reason: RegExp) => assert.throws(run, (error: unknown) =>
  error instanceof DomainError && error.issues[0]?.path === 'composeFile' && reason.test(error.message));

describe('interpolation', () => {
  it('fails ${VAR:?message} when VAR is unset or empty, and ${VAR?message} when unset, with the message', () => {
    refused(() => interpolate('${DBPASS:?set the password}', {}), /composeFile needs a value for the required variable DBPASS: set the password/);
    refused(() => interpolate('${DBPASS:?set the password}', { DBPASS: '' }), /the required variable DBPASS/);
    assert.equal(interpolate('${DBPASS?unset}', { DBPASS: '' }), '');
    refused(() => interpolate('${DBPASS?unset}', {}), /the required variable DBPASS: unset/);
    assert.equal(interpolate('${DBPASS:?x}-${DBPASS?y}', { DBPASS: 'pw' }), 'pw-pw');
  });

  it('refuses an unterminated ${, and keeps $$ as a literal $', () => {
    refused(() => interpolate('image: ${BROKEN', {}), /composeFile has an invalid interpolation format in "image: \$\{BROKEN"/);
    refused(() => interpolate('${1X}', {}), /invalid interpolation format/);
    assert.equal(interpolate('$${NOT}', {}), '${NOT}');
  });

  it('fails a deployment of the file with the message, for a stack and for the ports a project claims', () => {
    const file = 'services:\n  web:\n    image: "web:${TAG:?give the image a TAG}"\n    ports: ["${PORT:?}:80"]\n';
    refused(() => stackSpec(file, { appName: 'p', env: 'PORT=80' }), /the required variable TAG: give the image a TAG/);
    refused(() => publishedPorts(file, 'TAG=1'), /the required variable PORT/);
  });
});

describe('an env text', () => {
  it('drops a leading export and the matching quotes around a value, as docker reads an env file', () => {
    assert.deepEqual(envMap('export KEY=value\nQ="q v"\nS=\'s v\'\nMIXED="a\'\nKEPT=a"b"\n# c\n'),
      { KEY: 'value', Q: 'q v', S: 's v', MIXED: '"a\'', KEPT: 'a"b"' });
  });
});
