// Every refusal names its field once, as the schema check does: "<field> <what it must be>", in
// words a user acts on (no regular expression, no library's own text, no internal id).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('validation sentences', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  /** The one issue of a refusal that appends nothing, after checking the top-level message says it too. */
  const sentenceOf = async (operation: string, input: Record<string, unknown>, status = 400) => {
    const body = await berth.refused(operation, input, status);
    assert.equal(body.issues.length, 1, JSON.stringify(body));
    assert.equal(body.message, body.issues[0].message);
    return body.issues[0].message as string;
  };
  const destination = { name: 'b', accessKey: 'a', bucket: 'b', region: 'r', secretAccessKey: 's' };

  it('says the rule a list breaks, not the kind it already has', async () => {
    assert.equal(await sentenceOf('notification.create', { url: 'https://x.test', eventTypes: [] }), 'eventTypes must list at least one value');
  });

  it('says what a query number must be in words, with its bounds', async () => {
    assert.equal(await sentenceOf('events.all', { after: 'abc' }), 'after must be a whole number of at least 0');
    assert.equal(await sentenceOf('events.all', { limit: '-1' }), 'limit must be a whole number from 1 to 1000');
    assert.equal(await sentenceOf('events.all', { limit: '1001' }), 'limit must be a whole number from 1 to 1000');
    const aggregate = await sentenceOf('events.all', { aggregate: 'app-lication' });
    assert.match(aggregate, /^aggregate must be an aggregate type/);
    assert.doesNotMatch(aggregate, /\^|\$|\[/);
  });

  it('says a field of a least length given no string must be a string of that length', async () => {
    assert.equal(await sentenceOf('auth.login', { email: 'me@example.com', password: 12345678 }), 'password must be a string of at least 8 characters');
    assert.equal(await sentenceOf('auth.verify2FASetup', { pin: 123456, secret: 'x' }), 'pin must be a string of at least 6 characters');
  });

  it('names the field once, in the style of the schema check', async () => {
    assert.equal(await sentenceOf('auth.update', { email: null, password: 'short' }), 'password must be at least 8 characters long');
    assert.equal(await sentenceOf('notification.create', { url: 'ftp://x', eventTypes: ['DeploymentFailed'] }), 'url must be an http or https URL');
    assert.equal(await sentenceOf('application.one', { applicationId: 'nope' }, 404), 'applicationId names no application');
    const { projectId } = await berth.ok('project.create', { name: 'p' });
    const { applicationId } = await berth.ok('application.create', { name: 'a', projectId });
    await berth.ok('port.create', { applicationId, publishedPort: 8080, targetPort: 80 });
    assert.equal(await sentenceOf('port.create', { applicationId, publishedPort: 8080, targetPort: 80 }, 409), 'publishedPort "8080/tcp" is already taken');
  });

  it('says where YAML breaks and why in one sentence, not the parser\'s excerpt', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'y' });
    const { applicationId } = await berth.ok('application.create', { name: 'a', projectId });
    assert.equal(await sentenceOf('application.updateProxyConfig', { applicationId, proxyConfig: 'http:\n  routers: [' }),
      'proxyConfig is not valid YAML at line 2, column 13: flow sequence in block collection must be sufficiently indented and end with a ]');
  });

  it('says what a schedule is, not the cron library\'s reason', async () => {
    const { projectId } = await berth.ok('project.create', { name: 's' });
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'db', projectId, ...databaseCredentials('dbgamma') });
    const { destinationId } = await berth.ok('destination.create', { ...destination, endpoint: 'https://s3.example.test' });
    const backup = { prefix: 'p', destinationId, database: 'd', databaseType: 'dbgamma', dbgammaId, keepLatest: null, enabled: true };
    const expected = 'schedule must be a cron expression of five fields (minute, hour, day of the month, month, day of the week), such as "0 3 * * *" for 03:00 every day, or of six with seconds first';
    assert.equal(await sentenceOf('backup.create', { ...backup, schedule: 'every day' }), expected);
    assert.equal(await sentenceOf('backup.create', { ...backup, schedule: '61 3 * * *' }), expected);
  });

  it('refuses an endpoint the S3 client cannot call, on create and update, and takes a bare host[:port]', async () => {
    const expected = 'endpoint must be an http or https URL, or a host name with an optional port (reached over https), such as https://s3.example.com or s3.example.com:9000';
    for (const endpoint of ['not a url', '', 'ftp://s3.example.com', 'http://']) {
      assert.equal(await sentenceOf('destination.create', { ...destination, endpoint }), expected, endpoint);
    }
    const { destinationId } = await berth.ok('destination.create', { ...destination, endpoint: 's3.example.test:9000' });
    await berth.ok('destination.create', { ...destination, endpoint: 'http://127.0.0.1:9000' });
    assert.equal(await sentenceOf('destination.update', { ...destination, destinationId, endpoint: 'not a url' }), expected);
  });
});
