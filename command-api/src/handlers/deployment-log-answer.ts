// `deployment.logs` (not followed): `{ deploymentId, status, log }` as the contract declares it,
// written as the log file is read, so a log of many megabytes is never held whole per request.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeploymentLogs } from '@berth/shared/adapters/deployment-logs';
import type { DeploymentStatus } from '@berth/shared/domain/deployment/deployment';
import { StreamedAnswer } from '../streamed.ts';
import type { StreamLifetime } from '../stream-lifetime.ts';

/** A piece of the `log` string's JSON text: the string's own escapes, without its quotes. */
const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

async function* answerOf(logs: DeploymentLogs, deploymentId: string, status: DeploymentStatus): AsyncGenerator<string> {
  // The log as far as it had got when asked, beside the status read before it.
  const upTo = await logs.size(deploymentId);
  yield `{"deploymentId":${JSON.stringify(deploymentId)},"status":${JSON.stringify(status)},"log":"`;
  // A chunk may end inside a character: the decoder holds its first bytes for the next one.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of logs.chunks(deploymentId, upTo)) yield escaped(decoder.write(chunk));
  yield `${escaped(decoder.end())}"}`;
}

export class LogSoFar extends StreamedAnswer {
  constructor(private readonly logs: DeploymentLogs, private readonly deploymentId: string, private readonly status: DeploymentStatus) {
    super();
  }

  send(_request: FastifyRequest, reply: FastifyReply, lifetime: StreamLifetime) {
    const body = Readable.from(answerOf(this.logs, this.deploymentId, this.status), { objectMode: false });
    // The server stopping, or the caller refused meanwhile: cut, so a partial answer cannot pass for whole.
    lifetime.signal.addEventListener('abort', () => body.destroy(), { once: true });
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
