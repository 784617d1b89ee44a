// A MongoDB for the tests: the real server MONGO_URL names, else the stand-in that speaks the
// MongoDB wire protocol (jongodb, shipped in an npm package), started on a free port.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

export interface TestMongo {
  readonly url: string;
  readonly real: boolean;
  stop(): Promise<void>;
}

const binary = () => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@jongodb/memory-server-bin-linux-x64-gnu/package.json')), 'bin', 'jongodb');
};

/** Starts the stand-in; `port` 0 picks a free one. Answers once it accepts connections. */
export async function startStandIn(port = 0): Promise<TestMongo & { readonly process: ChildProcess }> {
  const child = spawn(binary(), [`--port=${port}`, '--host=127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the MongoDB stand-in did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the MongoDB stand-in exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^JONGODB_URI=(mongodb:\/\/[^/]+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    real: false,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function startMongo(): Promise<TestMongo> {
  const real = process.env.MONGO_URL;
  if (real) return { url: real, real: true, async stop() {} };
  return startStandIn();
}

/** A database name nobody else uses. */
export const freshDatabase = () => `berth_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
