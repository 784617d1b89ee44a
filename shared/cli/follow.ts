// `berth deployments logs --deployment-id id --follow`: the log printed a line as it arrives, until
// the stream's `end` event says how the deployment ended; one that did not succeed fails the command.
// A stream lost before its end (Berth restarted) is followed again as `events tail` does.
import { ApiError, ConnectionFailed, serverSentEvents } from './client.ts';
import { followReconnecting, type Outcome } from './reconnect.ts';

/** The exit code when a followed deployment did not end done: failed, cancelled or removed (1 is a refused call or a lost connection, 2 a usage error). */
export const UNSUCCESSFUL_EXIT = 3;

export class EndedUnsuccessfully extends Error {}

/** The data of the stream's `end` event. */
interface End { readonly status: string; readonly reason: string | null }

/**
 * Prints the followed log from `first`, reopening it with `open` when the stream is lost. Berth
 * sends the whole log again on each connection, so the lines already printed are skipped. A
 * reconnection refused means the connection is lost for good, whatever became of the deployment.
 */
export async function printFollowedLog(url: string, first: Response, open: () => Promise<Response>, out: (text: string) => void): Promise<void> {
  let printed = 0;
  const read = async (response: Response): Promise<Outcome> => {
    let seen = 0;
    for await (const { event, data } of serverSentEvents(response)) {
      if (event === 'line' && ++seen > printed) {
        out(data);
        printed = seen;
      }
      if (event !== 'end') continue;
      const end = JSON.parse(data) as End;
      if (end.status === 'done') return 'finished';
      throw new EndedUnsuccessfully(`the deployment ended ${end.status}${end.reason ? `: ${end.reason}` : ''}`);
    }
    return 'ended';
  };
  try {
    await followReconnecting({ url, open, read }, first);
  } catch (error) {
    // The first answer was read already: any refusal here is one to reconnect.
    if (error instanceof ApiError) throw new ConnectionFailed(`lost the connection to Berth at ${url}: ${error.message}`, { cause: error });
    throw error;
  }
}
