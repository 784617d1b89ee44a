// A certificate's own files in the proxy's folder: its chain and its key, in its folder.
import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const certificateFilesOf = (proxyDir: string, certificatePath: string) => ({
  certFile: join(proxyDir, certificatePath, 'chain.crt'),
  keyFile: join(proxyDir, certificatePath, 'privkey.key'),
});

export async function writeCertificateFiles(proxyDir: string, certificatePath: string, chain: string, key: string): Promise<void> {
  const { certFile, keyFile } = certificateFilesOf(proxyDir, certificatePath);
  // Left alone when already as they should be: each start writes every certificate's files again,
  // and the proxy watches its folder.
  const [chainNow, keyNow] = await Promise.all([certFile, keyFile].map((file) => readFile(file, 'utf8').catch(() => null)));
  if (chainNow === chain && keyNow === key) return;
  await mkdir(join(proxyDir, certificatePath), { recursive: true });
  await writeFile(certFile, chain);
  await writeFile(keyFile, key, { mode: 0o600 });
}

/**
 * Removes the two files the certificate wrote, and its folder only when nothing else is left in
 * it: certificate folders may nest or be shared, and another certificate's files must stay.
 */
export async function removeCertificateFiles(proxyDir: string, certificatePath: string): Promise<void> {
  const { certFile, keyFile } = certificateFilesOf(proxyDir, certificatePath);
  await rm(certFile, { force: true });
  await rm(keyFile, { force: true });
  await rmdir(join(proxyDir, certificatePath)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'ENOENT') throw error;
  });
}
