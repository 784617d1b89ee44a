// `berth deployments logs --deployment-id id --follow`: the log printed a line as it arrives, until
// the stream's `end` event says how the deployment ended; one that did not succeed fails the command.
import { serverSentEvents } from './client.ts';

/** The exit code when a followed deployment did not end done: failed, cancelled, removed, or its end never came (1 is a refused call, 2 a usage error). */
export const UNSUCCESSFUL_EXIT = 3;

export class EndedUnsuccessfully extends Error {}

/** The data of the stream's `end` event. */
interface End { readonly status: string; readonly reason: string | null }

export async function printFollowedLog(response: Response, out: (text: string) => void): Promise<void> {
  for await (const { event, data } of serverSentEvents(response)) {
    if (event === 'line') out(data);
    if (event !== 'end') continue;
    const end = JSON.parse(data) as End;
    if (end.status === 'done') return;
    throw new EndedUnsuccessfully(`the deployment ended ${end.status}${end.reason ? `: ${end.reason}` : ''}`);
  }
  throw new EndedUnsuccessfully('the log stream closed before the deployment ended');
}
