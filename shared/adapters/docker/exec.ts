// TaskExec on the engine: runs a command in the running container of a service's task, with its
// standard streams piped through, backpressure kept (a slow upload slows the dump, memory stays
// flat), standard error kept to its last lines, and the exit code read back.
import { Writable, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import { inspectService, listTasks } from './services.ts';
import { isMarked } from '../../domain/ownership.ts';
import { NoRunningTaskError, type ExecIo, type ExecResult, type MarkedService, type TaskExec } from '../../ports/task-exec.ts';

const STDERR_TAIL = 4096;

/** The container of a running task of `service` on this engine, or null (also when the service of that name is not the one marked). */
async function runningContainer(docker: Docker, service: MarkedService): Promise<string | null> {
  const info = await inspectService(docker, service.name);
  if (!info || !isMarked(info.spec.Labels, service.mark)) return null;
  const running = (await listTasks(docker, service.name)).find((task) =>
    task.desiredState === 'running' && task.state === 'running' && task.containerId);
  return running?.containerId ?? null;
}

/** Splits the engine's multiplexed stream (8-byte frame headers) into stdout and a stderr tail. */
class Demux extends Writable {
  private pending: Buffer = Buffer.alloc(0);
  stderr = '';

  constructor(private readonly stdout: Writable | undefined) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Buffer[] = [];
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) break;
      const payload = this.pending.subarray(8, 8 + size);
      if (this.pending[0] === 2) this.stderr = (this.stderr + payload.toString('utf8')).slice(-STDERR_TAIL);
      else frames.push(payload);
      this.pending = this.pending.subarray(8 + size);
    }
    if (!this.stdout || frames.length === 0) return done();
    const ok = this.stdout.write(frames.length === 1 ? frames[0] : Buffer.concat(frames));
    if (ok) done(); else this.stdout.once('drain', () => done());
  }
}

export function dockerTaskExec(docker: Docker): TaskExec {
  return {
    async exec(service, command, io: ExecIo): Promise<ExecResult> {
      // A service the engine does not know has no running task either.
      const containerId = await runningContainer(docker, service).catch((error: { statusCode?: number }) => {
        if (error.statusCode === 404) return null;
        throw error;
      });
      if (!containerId) throw new NoRunningTaskError(service.name);
      const exec = await docker.getContainer(containerId).exec({
        Cmd: [...command], AttachStdout: true, AttachStderr: true, AttachStdin: Boolean(io.stdin),
      });
      const stream = await exec.start({ hijack: true, stdin: Boolean(io.stdin) }) as unknown as NodeJS.ReadWriteStream & { destroy(error?: Error): void };
      const demux = new Demux(io.stdout);
      const abort = () => stream.destroy(new Error('cancelled'));
      io.signal?.addEventListener('abort', abort, { once: true });
      try {
        if (io.stdin) feed(io.stdin, stream);
        await new Promise<void>((resolve, reject) => {
          stream.on('error', reject);
          demux.on('error', reject);
          demux.on('finish', resolve);
          stream.pipe(demux);
        });
      } finally {
        io.signal?.removeEventListener('abort', abort);
        io.stdout?.end();
      }
      const { ExitCode } = await exec.inspect();
      return { exitCode: ExitCode ?? -1, stderr: demux.stderr };
    },
  };
}

/** Copies `input` into the exec's stdin, then half-closes it so the command sees its end. */
function feed(input: Readable, stream: NodeJS.ReadWriteStream): void {
  input.on('data', (chunk: Buffer) => { if (!stream.write(chunk)) { input.pause(); stream.once('drain', () => input.resume()); } });
  input.on('end', () => stream.end());
  input.on('error', () => stream.end());
}
