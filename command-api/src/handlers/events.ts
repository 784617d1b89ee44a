// The event history for auditors: the log as it was recorded, less the password and token hashes
// that no answer shows (secrets stay sealed in it).
import type { contract } from '@berth/shared/contract/index';
import { notFound } from '@berth/shared/errors';
import type { GroupHandlers } from './kit.ts';
import { Following, NdjsonExport, inHistory, pageOf } from '../history/answers.ts';
import { selectionOf } from '../history/selection.ts';

export const events: GroupHandlers<typeof contract.events> = {
  all: async (input, ctx) => {
    const selection = selectionOf(input);
    return { ...(await pageOf(ctx.infra.eventStore, selection)), head: await ctx.infra.eventStore.head() };
  },
  stream: async ({ stream }, ctx) => {
    const { events: history, revision } = await ctx.infra.eventStore.readStream(stream);
    if (revision === -1) throw notFound('stream', 'stream in the log');
    return { stream, revision, events: history.map(inHistory) };
  },
  follow: async (input, ctx) => new Following(ctx.infra.eventStore, selectionOf(input)),
  export: async (input, ctx) => new NdjsonExport(ctx.infra.eventStore, selectionOf(input)),
};
