// The event history for auditors: the log as it was recorded, less the password and token hashes
// that no answer shows (secrets stay sealed in it), in pages or streamed as the client reads.
import type { contract } from '@berth/shared/contract/index';
import { notFound } from '@berth/shared/errors';
import type { GroupHandlers } from './kit.ts';
import { Following, NdjsonExport, pageOf, streamPageOf } from '../history/answers.ts';
import { selectionOf } from '../history/selection.ts';

export const events: GroupHandlers<typeof contract.events> = {
  all: async (input, ctx) => {
    const selection = selectionOf(input);
    return { ...(await pageOf(ctx.infra.eventStore, selection)), head: await ctx.infra.eventStore.head() };
  },
  stream: async (input, ctx) => {
    // A page, not the whole stream: a stream of large events held whole per slow client took gigabytes.
    const page = await streamPageOf(ctx.infra.eventStore, selectionOf(input));
    // No event shown: no such stream (a cursor Berth gave out always has more after it).
    if (page.revision === -1) throw notFound('stream', 'stream in the log');
    return { stream: input.stream, ...page };
  },
  follow: async (input, ctx) => new Following(ctx.infra.eventStore, selectionOf(input)),
  export: async (input, ctx) => new NdjsonExport(ctx.infra.eventStore, selectionOf(input)),
};
