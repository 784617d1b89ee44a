// Deployment logs: one text file per deployment in the data folder, written by the reactors and
// read (or followed) by the API. Every secret the deployment knows is masked before a line is
// written, so no password, token or key ever reaches a log.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const MASK = '********';
/** Shorter values are not masked: they would blank out ordinary words. */
const SHORTEST_SECRET = 4;

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

  /** The log from byte `from` on ('' when there is none yet). */
  async read(deploymentId: string, from = 0): Promise<string> {
    try {
      const text = await readFile(this.path(deploymentId));
      return text.subarray(from).toString('utf8');
    } catch {
      return '';
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
