// A certificate's own files in the proxy's folder: its chain and its key, in its folder.
import { chmod, mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFileWhole } from '@berth/shared/adapters/whole-file';
import { parentsOf } from '@berth/shared/domain/certificate/folder';

/** Readable by their owner only: the key is a secret, and the proxy reads both files as one user. */
const OWNER_ONLY = 0o600;

export const certificateFilesOf = (proxyDir: string, certificatePath: string) => ({
  certFile: join(proxyDir, certificatePath, 'chain.crt'),
  keyFile: join(proxyDir, certificatePath, 'privkey.key'),
});

/**
 * Leaves `file` holding `text` at 0600. One that already does is left alone (each start writes
 * every certificate's files again, and the proxy watches its folder); one holding the text at
 * another mode (a restore that lost modes) gets its mode back.
 */
async function keepOwnerOnly(file: string, text: string): Promise<void> {
  const now = await readFile(file, 'utf8').catch(() => null);
  if (now !== text) return replaceFileWhole(file, text, OWNER_ONLY);
  if (((await stat(file)).mode & 0o777) !== OWNER_ONLY) await chmod(file, OWNER_ONLY);
}

export async function writeCertificateFiles(proxyDir: string, certificatePath: string, chain: string, key: string): Promise<void> {
  const { certFile, keyFile } = certificateFilesOf(proxyDir, certificatePath);
  await mkdir(join(proxyDir, certificatePath), { recursive: true });
  await keepOwnerOnly(certFile, chain);
  await keepOwnerOnly(keyFile, key);
}

/** Removes `folder` when it is empty, answering whether it is gone. */
async function removedIfEmpty(folder: string): Promise<boolean> {
  try {
    await rmdir(folder);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return true;
    if (code === 'ENOTEMPTY') return false;
    throw error;
  }
}

/**
 * Removes the two files the certificate wrote, then its folder and each folder above it that is
 * left empty, up to the proxy's folder (never included): certificate folders may nest or be
 * shared, and another certificate's files, or the folders holding them, must stay.
 */
export async function removeCertificateFiles(proxyDir: string, certificatePath: string): Promise<void> {
  const { certFile, keyFile } = certificateFilesOf(proxyDir, certificatePath);
  await rm(certFile, { force: true });
  await rm(keyFile, { force: true });
  for (const folder of [certificatePath, ...parentsOf(certificatePath).reverse()]) {
    if (!(await removedIfEmpty(join(proxyDir, folder)))) return;
  }
}
