// What certificates.create takes: certificateData holds certificates only, each one issued by the
// next, and a certificatePath the proxy's folder can hold beside the applications' files. Anything
// else is refused naming the field at fault, and nothing is appended.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';

/** A server certificate issued by a CA of its own: the chain (server's first, then the CA's) and the server's key. */
function issuedChain(commonName: string) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-chain-'));
  const at = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    execFileSync('openssl', ['req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=Berth Test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'], { stdio: 'ignore' });
    execFileSync('openssl', ['req', ...ec, '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', `/CN=${commonName}`], { stdio: 'ignore' });
    execFileSync('openssl', ['x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial',
      '-out', at('leaf.pem'), '-days', '2'], { stdio: 'ignore' });
    return { leaf: readFileSync(at('leaf.pem'), 'utf8'), ca: readFileSync(at('ca.pem'), 'utf8'), privateKey: readFileSync(at('leaf.key'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const keyBody = (pem: string) => pem.split('\n').filter((line) => line && !line.startsWith('-----')).join('');

describe('certificates.create input', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const shop = selfSignedCertificate('shop.example.com');

  describe('certificateData', () => {
    it('refuses a private key inside certificateData, naming certificateData, and the key never reaches the log', async () => {
      const refused = await berth.refused('certificates.create',
        { name: 'with-key', certificateData: `${shop.certificateData}${shop.privateKey}`, privateKey: shop.privateKey }, 400, 'certificateData');
      assert.match(refused.message, /certificates only/);
      assert.ok(!(await berth.eventLog()).includes(keyBody(shop.privateKey)), 'the private key is in the log in clear');
    });

    it('refuses a block that is no certificate, or one cut short, naming certificateData', async () => {
      for (const certificateData of [`${shop.certificateData}-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n`,
        `${shop.certificateData}-----BEGIN CERTIFICATE-----\nMIIB\n`, '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n']) {
        await berth.refused('certificates.create', { name: 'junk', ...shop, certificateData }, 400, 'certificateData');
      }
    });

    it('takes the certificate openssl exported with its attribute lines, keeping and serving the certificate only', async () => {
      const exported = `Bag Attributes\n    localKeyID: 01 02\nsubject=CN = shop.example.com\nissuer=CN = shop.example.com\n${shop.certificateData}`;
      const created = await berth.ok('certificates.create', { name: 'exported', ...shop, certificateData: exported });
      assert.equal(created.certificateData, `${shop.certificateData.trim()}\n`);
      assert.equal(created.commonName, 'shop.example.com');
    });

    it('refuses a chain whose second certificate did not issue the first, naming certificateData', async () => {
      const stranger = selfSignedCertificate('stranger.example.com');
      const refused = await berth.refused('certificates.create',
        { name: 'unrelated', ...shop, certificateData: `${shop.certificateData}${stranger.certificateData}` }, 400, 'certificateData');
      assert.match(refused.message, /certificateData holds certificate 1 of the chain, which was not issued by certificate 2/);
      const chain = issuedChain('shop.example.com');
      await berth.refused('certificates.create',
        { name: 'reversed', certificateData: `${chain.ca}${chain.leaf}`, privateKey: chain.privateKey }, 400, 'certificateData');
    });

    it('takes a chain in issuing order, with blank lines between its certificates, answering the server certificate\'s facts', async () => {
      const chain = issuedChain('chain.example.com');
      const created = await berth.ok('certificates.create',
        { name: 'chain', certificateData: `${chain.leaf}\n\n${chain.ca}`, privateKey: chain.privateKey });
      assert.equal(created.commonName, 'chain.example.com');
      assert.match(created.issuer, /Berth Test CA/);
    });
  });

  describe('certificatePath', () => {
    it('refuses a folder named like a proxy configuration file, naming certificatePath', async () => {
      for (const certificatePath of ['shop.yml', 'tls/shop.YAML', 'shop.yaml/tls', 'Shop.Yml']) {
        const refused = await berth.refused('certificates.create', { name: 'yml', ...shop, certificatePath }, 400, 'certificatePath');
        assert.match(refused.message, /\.yml/, certificatePath);
      }
    });

    it('refuses a folder name or a path too long for the filesystem, naming certificatePath', async () => {
      for (const certificatePath of ['a'.repeat(256), `tls/${'b'.repeat(300)}`, Array.from({ length: 120 }, () => 'segment-9').join('/')]) {
        const refused = await berth.refused('certificates.create', { name: 'long', ...shop, certificatePath }, 400, 'certificatePath');
        assert.match(refused.message, /longer than 255 bytes|at most 1024 characters/);
      }
      await berth.ok('certificates.create', { name: 'longest', ...shop, certificatePath: `long/${'c'.repeat(255)}` });
    });

    it('refuses "certificates" itself, which would hold back every certificate sent without a path, and takes one inside it', async () => {
      const refused = await berth.refused('certificates.create', { name: 'all', ...shop, certificatePath: 'certificates' }, 400, 'certificatePath');
      assert.match(refused.message, /sent without a certificatePath/);
      await berth.ok('certificates.create', { name: 'inside', ...shop, certificatePath: 'certificates/mine' });
      const later = await berth.ok('certificates.create', { name: 'later', ...shop });
      assert.equal(later.certificatePath, `certificates/${later.certificateId}`);
    });
  });
});
