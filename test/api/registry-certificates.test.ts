import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';

const PASSWORD = 'registry-password-in-the-clear';
const registryInput = (registryName: string) => ({
  registryName, username: 'bot', password: PASSWORD, registryUrl: 'registry.example.com:5000', registryType: 'selfHosted', imagePrefix: null,
});

describe('registry and certificates operations', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const registry = async (name = 'images') => (await berth.ok('registry.create', registryInput(name))).registryId as string;

  describe('registry', () => {
    it('records the admin who created it, answers the password, and never logs it in clear', async () => {
      const admin = await berth.ok('auth.get');
      const created = await berth.ok('registry.create', registryInput('private'));
      assert.equal(created.adminId, admin.id);
      assert.equal(created.password, PASSWORD);
      assert.equal(created.registryUrl, 'registry.example.com:5000');
      assert.equal((await berth.ok('registry.one', { registryId: created.registryId })).password, PASSWORD);
      assert.ok(!(await berth.eventLog()).includes(PASSWORD));
    });

    it('lists registries newest first', async () => {
      const first = await registry('first');
      const second = await registry('second');
      const ids = (await berth.ok('registry.all')).map((r: { registryId: string }) => r.registryId);
      assert.ok(ids.indexOf(second) < ids.indexOf(first));
    });

    it('refuses a registryUrl that names no host, naming registryUrl, on create and update', async () => {
      const registryId = await registry();
      const head = await berth.head();
      for (const registryUrl of ['not a host', 'ftp://files.example.com', 'bot:secret@registry.example.com']) {
        const created = await berth.call('registry.create', { ...registryInput('bad'), registryUrl });
        assert.equal(created.status, 400, registryUrl);
        assert.deepEqual(pathsOf(created.body), ['registryUrl']);
        const updated = await berth.call('registry.update', { registryId, registryUrl });
        assert.equal(updated.status, 400, registryUrl);
        assert.deepEqual(pathsOf(updated.body), ['registryUrl']);
      }
      assert.equal(await berth.head(), head);
    });

    it('updates only the fields given, sealing a new password', async () => {
      const registryId = await registry('edit');
      const updated = await berth.ok('registry.update', { registryId, password: 'new-registry-secret', registryUrl: 'https://ghcr.io' });
      assert.equal(updated.password, 'new-registry-secret');
      assert.equal(updated.registryUrl, 'https://ghcr.io');
      assert.equal(updated.registryName, 'edit');
      assert.ok(!(await berth.eventLog()).includes('new-registry-secret'));
      const head = await berth.head();
      await berth.ok('registry.update', { registryId, password: 'new-registry-secret' });
      assert.equal(await berth.head(), head, 'the same password again is no change');
    });

    it('moves a registry to an existing account only, naming adminId otherwise', async () => {
      const registryId = await registry();
      const admin = await berth.ok('auth.get');
      await berth.refused('registry.update', { registryId, adminId: 'nobody' }, 404, 'adminId');
      assert.equal((await berth.ok('registry.update', { registryId, adminId: admin.id })).adminId, admin.id);
    });

    it('takes createdAt back as read (in any offset), and refuses another instant or one that is not a date', async () => {
      const registryId = await registry();
      const { createdAt } = await berth.ok('registry.one', { registryId });
      const offset = new Date(Date.parse(createdAt)).toISOString().replace('Z', '+00:00');
      assert.equal((await berth.ok('registry.update', { registryId, createdAt: offset })).createdAt, createdAt);
      await berth.refused('registry.update', { registryId, createdAt: '2024-05-01T10:00:00Z' }, 400, 'createdAt');
      await berth.refused('registry.update', { registryId, createdAt: 'yesterday' }, 400, 'createdAt');
    });

    it('answers NOT_FOUND naming registryId for an unknown one, appending nothing', async () => {
      for (const [op, input] of [
        ['registry.one', { registryId: 'nope' }], ['registry.remove', { registryId: 'nope' }],
        ['registry.update', { registryId: 'nope', username: 'x' }],
      ] as const) await berth.refused(op, input, 404, 'registryId');
    });

    it('refuses to remove a registry an application uses, then removes it once unused', async () => {
      const registryId = await registry('in-use');
      const { projectId } = await berth.ok('project.create', { name: 'shop' });
      const { applicationId, appName } = await berth.ok('application.create', { name: 'web', projectId });
      await berth.ok('application.update', { applicationId, registryId });
      const refused = await berth.refused('registry.remove', { registryId }, 409, 'registryId');
      // Named, so the user knows which applications to change.
      assert.match(refused.message, new RegExp(`set another registry on them \\(or none\\) first \\(1 application\\(s\\): ${appName}\\)$`));
      await berth.ok('application.update', { applicationId, registryId: null });
      assert.equal((await berth.ok('registry.remove', { registryId })).registryName, 'in-use');
      assert.equal((await berth.call('registry.one', { registryId })).status, 404);
    });

    it('answers why a registry cannot be reached, or its image pulled', async () => {
      const unreachable = await berth.refused('registry.testRegistry', registryInput('probe'), 400, 'registryUrl');
      assert.match(unreachable.message, /registry\.example\.com/);
      // Said as what happened: nothing answered as a registry there, which is not a refused login.
      assert.match(unreachable.issues[0].message, /^registryUrl names no registry Berth could reach: /);
      const noImage = await berth.refused('registry.enableSelfHostedRegistry', { registryUrl: 'registry.example.com:5000', username: 'u', password: 'p' }, 400, 'registryUrl');
      assert.match(noImage.message, /could not be pulled/);
      await berth.refused('registry.testRegistry', { ...registryInput('probe'), registryUrl: 'no such host' }, 400, 'registryUrl');
    });
  });

  describe('certificates', () => {
    const shop = selfSignedCertificate('shop.example.com');
    const other = selfSignedCertificate('other.example.com');
    const keyBody = (pem: string) => pem.split('\n').filter((line) => line && !line.startsWith('-----')).join('');

    it('stores a certificate with its key sealed, and answers what it certifies', async () => {
      const created = await berth.ok('certificates.create', { name: 'shop', ...shop });
      assert.equal(created.certificateId.length, 21);
      assert.equal(created.certificatePath, `certificates/${created.certificateId}`);
      assert.equal(created.autoRenew, false);
      assert.equal(created.commonName, 'shop.example.com');
      assert.ok(Date.parse(created.notAfter) > Date.now());
      assert.equal(created.privateKey, shop.privateKey);
      const one = await berth.ok('certificates.one', { certificateId: created.certificateId });
      assert.equal(one.certificateData, shop.certificateData);
      assert.ok(!(await berth.eventLog()).includes(keyBody(shop.privateKey)), 'the private key is in the log in clear');
    });

    it('uses a chosen certificateId and certificatePath, and refuses the id twice', async () => {
      const created = await berth.ok('certificates.create', {
        certificateId: 'shop-tls', name: 'shop', ...shop, certificatePath: 'shop/tls', autoRenew: null,
      });
      assert.equal(created.certificateId, 'shop-tls');
      assert.equal(created.certificatePath, 'shop/tls');
      // Berth renews nothing: true is refused (certificate-validity.test.ts), null is kept as false.
      assert.equal(created.autoRenew, false);
      await berth.refused('certificates.create', { certificateId: 'shop-tls', name: 'again', ...shop }, 409, 'certificateId');
    });

    it('gives each certificate a folder of its own: refuses one that is, is inside or contains another\'s, naming certificatePath', async () => {
      const folder = `nest-${Math.random().toString(36).slice(2, 8)}`;
      const first = await berth.ok('certificates.create', { name: 'first', ...shop, certificatePath: `${folder}/tls` });
      for (const certificatePath of [`${folder}/tls`, `${folder}/tls/inner`, folder]) {
        const refused = await berth.refused('certificates.create', { name: 'second', ...other, certificatePath }, 409, 'certificatePath');
        assert.match(refused.message, new RegExp(`certificate ${first.certificateId} \\("${folder}/tls"\\)`));
      }
      await berth.ok('certificates.create', { name: 'beside', ...other, certificatePath: `${folder}/tls2` });
      await berth.ok('certificates.remove', { certificateId: first.certificateId });
      await berth.ok('certificates.create', { name: 'again', ...other, certificatePath: `${folder}/tls` });
    });

    it('refuses what the proxy could not serve, naming the field at fault, appending nothing', async () => {
      const head = await berth.head();
      const cases = [
        [{ ...shop, certificateData: 'not a certificate' }, 'certificateData'],
        [{ ...shop, privateKey: 'not a key' }, 'privateKey'],
        [{ ...shop, privateKey: other.privateKey }, 'privateKey'],
        [{ ...shop, certificatePath: '../../etc' }, 'certificatePath'],
        [{ ...shop, certificateId: 'has/slash' }, 'certificateId'],
      ] as const;
      for (const [input, field] of cases) {
        const answer = await berth.call('certificates.create', { name: 'bad', ...input });
        assert.equal(answer.status, 400, field);
        assert.deepEqual(pathsOf(answer.body), [field]);
      }
      const mismatch = await berth.call('certificates.create', { name: 'bad', ...shop, privateKey: other.privateKey });
      assert.match(mismatch.body.message, /does not match the certificate/);
      assert.equal(await berth.head(), head);
    });

    it('lists certificates newest first, removes one and then answers NOT_FOUND', async () => {
      const first = (await berth.ok('certificates.create', { name: 'first', ...shop })).certificateId;
      const second = (await berth.ok('certificates.create', { name: 'second', ...other })).certificateId;
      const ids = (await berth.ok('certificates.all')).map((c: { certificateId: string }) => c.certificateId);
      assert.ok(ids.indexOf(second) < ids.indexOf(first));
      assert.equal((await berth.ok('certificates.remove', { certificateId: first })).name, 'first');
      const gone = await berth.call('certificates.one', { certificateId: first });
      assert.equal(gone.status, 404);
      assert.deepEqual(pathsOf(gone.body), ['certificateId']);
      assert.equal((await berth.call('certificates.remove', { certificateId: first })).status, 404);
    });
  });
});
