// Following a stream of Berth across its restarts, as an EventSource does: `events tail` and
// `deployments logs --follow` both take a stream up again where they left it when only the
// connection was lost.
import { ApiError, connectionFailure } from './client.ts';

/** How long a follower waits before trying again, doubling from the first to the last. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5000;
/** What a proxy in front of Berth answers while Berth is away: worth waiting out too. */
const AWAY_STATUSES = new Set([502, 503, 504]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What reading one connection came to: nothing more to follow, or a stream Berth ended early. */
export type Outcome = 'finished' | 'ended';

export interface Follower {
  /** The address followed, named in the one line said per outage. */
  readonly url: string;
  /** Opens the stream again, from where the last reading left it. */
  readonly open: () => Promise<Response>;
  /** Reads one connection's stream, printing as it comes. */
  readonly read: (response: Response) => Promise<Outcome>;
}

/**
 * Reads `first` (or a stream it opens) and, whenever Berth goes away (killed, restarting, its
 * stream ended), says so once and opens it again with back-off. A refusal still ends it, and so
 * does a Berth never reached: a wrong URL is likelier then than an outage.
 */
export async function followReconnecting(follower: Follower, first?: Response): Promise<void> {
  let pending = first;
  let connected = false;
  let failures = 0;
  for (;;) {
    let why = `Berth at ${follower.url} ended the stream`;
    try {
      const response = pending ?? await follower.open();
      pending = undefined;
      connected = true;
      failures = 0;
      if (await follower.read(response) === 'finished') return;
    } catch (error) {
      const failure = connectionFailure(error, follower.url);
      const away = error instanceof ApiError && AWAY_STATUSES.has(error.status);
      if (!connected || (!failure && !away)) throw error;
      why = failure ?? `Berth at ${follower.url} answered ${(error as ApiError).status}`;
    }
    // One line an outage, not one a try.
    if (failures === 0) console.error(`${why}; reconnecting…`);
    await sleep(Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++));
  }
}
