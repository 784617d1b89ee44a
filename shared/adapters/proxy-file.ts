// Where an application's dynamic configuration file lives, and how it is written: whole, through
// a temporary file and a rename, so the proxy's file watcher never reads half a file.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFileWhole } from './whole-file.ts';

export const proxyFilePath = (dir: string, appName: string) => join(dir, `${appName}.yml`);

export async function writeProxyFile(dir: string, appName: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await replaceFileWhole(proxyFilePath(dir, appName), text);
}

/** The file's text, or null when there is none. */
export async function readProxyFile(dir: string, appName: string): Promise<string | null> {
  try {
    return await readFile(proxyFilePath(dir, appName), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export const removeProxyFile = (dir: string, appName: string) => rm(proxyFilePath(dir, appName), { force: true });
