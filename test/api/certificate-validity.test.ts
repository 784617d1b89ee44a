// What certificates.create refuses besides a pair it cannot read: a certificate the proxy could
// serve at no moment from now on (expired, or valid for no moment at all), which clients would
// refuse in every application's file, and `autoRenew: true`, a renewal Berth cannot do (it holds no
// account with the issuer). Each refusal names its field, says what to do, and appends nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate, type CertificatePair } from '../support/certificate.ts';
import { ManualClock } from '../support/clock.ts';

const CA_CONFIG = `[ca]
default_ca = berth
[berth]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
`;

/** A self-signed pair valid from `notBefore` to `notAfter` (openssl's YYYYMMDDHHMMSSZ): `openssl ca` takes any two dates. */
function validBetween(commonName: string, notBefore: string, notAfter: string): CertificatePair {
  const dir = mkdtempSync(join(tmpdir(), 'berth-dates-'));
  const at = (name: string) => join(dir, name);
  try {
    writeFileSync(at('ca.cnf'), CA_CONFIG);
    writeFileSync(at('index.txt'), '');
    writeFileSync(at('serial'), '01\n');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', at('key.pem'), '-out', at('req.csr'), '-subj', `/CN=${commonName}`], { stdio: 'ignore' });
    execFileSync('openssl', ['ca', '-batch', '-config', 'ca.cnf', '-selfsign', '-keyfile', 'key.pem', '-in', 'req.csr', '-out', 'cert.pem',
      '-startdate', notBefore, '-enddate', notAfter, '-notext'], { cwd: dir, stdio: 'ignore' });
    return { certificateData: readFileSync(at('cert.pem'), 'utf8'), privateKey: readFileSync(at('key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('certificates.create refuses what Berth could not serve or do', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('refuses an expired certificate, naming certificateData and saying to upload its renewed one', async () => {
    const expired = validBetween('old.test', '20200101000000Z', '20200201000000Z');
    const refused = await berth.refused('certificates.create', { name: 'expired', ...expired }, 400, 'certificateData');
    assert.match(refused.message, /^certificateData expired on 2020-02-01T00:00:00\.000Z: .*upload .*renewed/);
  });

  it('refuses a certificate valid for no moment (notAfter not after notBefore), naming certificateData', async () => {
    const backwards = validBetween('backwards.test', '20300101000000Z', '20200201000000Z');
    const empty = validBetween('empty.test', '20300101000000Z', '20300101000000Z');
    for (const pair of [backwards, empty]) {
      const refused = await berth.refused('certificates.create', { name: 'never', ...pair }, 400, 'certificateData');
      assert.match(refused.message, /^certificateData is valid for no moment: its notAfter .* is not after its notBefore/);
    }
  });

  it('takes a certificate not valid yet, which the proxy serves once it is', async () => {
    const later = validBetween('later.test', '20300101000000Z', '20310101000000Z');
    const created = await berth.ok('certificates.create', { name: 'later', ...later });
    assert.equal(created.notBefore, '2030-01-01T00:00:00.000Z');
  });

  it('refuses autoRenew: true, naming autoRenew and saying the renewed certificate is uploaded in its place; takes false and null', async () => {
    const pair = selfSignedCertificate('renew.test');
    const refused = await berth.refused('certificates.create', { name: 'renew', ...pair, autoRenew: true }, 400, 'autoRenew');
    assert.match(refused.message, /^autoRenew cannot be true: Berth cannot renew an uploaded certificate.*upload the renewed certificate .*in its place/);
    for (const autoRenew of [false, null]) {
      const created = await berth.ok('certificates.create', { name: 'renew', ...pair, autoRenew });
      assert.equal(created.autoRenew, false);
    }
  });
});

describe('certificates.create reads "expired" on Berth\'s clock', () => {
  const clock = new ManualClock(Date.now());
  let berth: TestBerth;
  before(async () => { berth = await startBerth({ clock }); });
  after(() => berth.stop());

  it('refuses a certificate that expired by Berth\'s clock', async () => {
    // Valid for two days from now: expired once the clock is three days on.
    const pair = selfSignedCertificate('soon.test');
    clock.advance(3 * 24 * 3600 * 1000);
    await berth.relogin();
    await berth.refused('certificates.create', { name: 'soon', ...pair }, 400, 'certificateData');
  });
});
