// Deployment logs: one text file per deployment in the data folder, written by the reactors and
// read (or followed) by the API. Every secret the deployment knows is masked before a line is
// written, so no password, token or key ever reaches a log.
import { appendFileSync, createReadStream, mkdirSync, rmSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

const MASK = '********';
/** Shorter values are not masked: they would blank out ordinary words. */
const SHORTEST_SECRET = 4;
/** What one chunk of a streamed read holds at most. */
const CHUNK_BYTES = 64 * 1024;

export interface LogWriter {
  line(text: string): void;
  /** `text` with the deployment's secrets masked, as its lines are: for what is said of it elsewhere (its failure's reason). */
  mask(text: string): string;
}

export class DeploymentLogs {
  constructor(private readonly dir: string) {}

  path(deploymentId: string): string {
    return join(this.dir, `${deploymentId.replace(/[^\w-]/g, '_')}.log`);
  }

  /** A writer that masks each of `secrets` (and each line of a multi-line one) in every line. */
  writer(deploymentId: string, secrets: readonly string[]): LogWriter {
    mkdirSync(this.dir, { recursive: true });
    const masked = [...new Set(secrets.flatMap((secret) => [secret, ...secret.split('\n').map((part) => part.trim())]))]
      .filter((secret) => secret.length >= SHORTEST_SECRET)
      .sort((a, b) => b.length - a.length);
    const file = this.path(deploymentId);
    const mask = (text: string) => masked.reduce((safe, secret) => safe.split(secret).join(MASK), text);
    return {
      mask,
      line: (text) => {
        const safe = mask(text);
        try {
          appendFileSync(file, safe.endsWith('\n') ? safe : `${safe}\n`);
        } catch {
          // Lost, not thrown (the disk full, the folder gone): lines come from a build's output
          // handlers too, where a throw would end the whole process.
        }
      },
    };
  }

  /**
   * At most `most` bytes of the log from byte `from` on (none when there is no log yet). Only those
   * are read: a follower polls a growing log, and reading it whole each time costs its whole size.
   * Bytes, not text: a read may end inside a character, which the caller's decoder completes.
   */
  async readBytes(deploymentId: string, from: number, most: number): Promise<Buffer> {
    const file = await open(this.path(deploymentId), 'r').catch(() => null);
    if (!file) return Buffer.alloc(0);
    try {
      const length = Math.max(0, Math.min(most, (await file.stat()).size - from));
      const into = Buffer.allocUnsafe(length);
      let filled = 0;
      for (let got = -1; got !== 0 && filled < length; filled += got) {
        ({ bytesRead: got } = await file.read(into, filled, length - filled, from + filled));
      }
      return into.subarray(0, filled);
    } finally {
      await file.close();
    }
  }

  /**
   * The log's first `upTo` bytes, a chunk at a time as the caller takes them: a long log is never
   * held whole. Nothing when there is no log.
   */
  async *chunks(deploymentId: string, upTo: number): AsyncGenerator<Buffer> {
    if (upTo <= 0) return;
    const stream = createReadStream(this.path(deploymentId), { start: 0, end: upTo - 1, highWaterMark: CHUNK_BYTES });
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      // Pruned before it was opened: there is nothing more to send.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    } finally {
      stream.destroy();
    }
  }

  async size(deploymentId: string): Promise<number> {
    return stat(this.path(deploymentId)).then((info) => info.size, () => 0);
  }

  remove(deploymentId: string): void {
    rmSync(this.path(deploymentId), { force: true });
  }
}

export const deploymentLogsOf = (dataDir: string) => new DeploymentLogs(join(dataDir, 'deployments'));
