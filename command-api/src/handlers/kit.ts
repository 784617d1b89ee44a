// The handler shapes most operations share, so a group file is a table of one-liners.
import type { Operation, InputOf } from '@berth/shared/contract/operation';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { notImplemented } from '@berth/shared/errors';
import type { Doc } from '@berth/shared/ports/read-store';
import type { CommandOf, Context } from '../context.ts';

export type Handler<I = unknown> = (input: I, ctx: Context) => Promise<unknown>;

/** The handlers of one contract group; an operation left out answers NOT_IMPLEMENTED. */
export type GroupHandlers<G> = {
  [K in keyof G]?: G[K] extends Operation ? Handler<InputOf<G[K]>> : never;
};

type Input = Record<string, unknown>;
type Command = { type: string; data: object };
type CommandBuilder<I> = (input: I, ctx: Context) => Command | Promise<Command>;
/** Builds one of `A`'s own commands from an operation's input. */
export type BuilderOf<A, I> = (input: I, ctx: Context) => CommandOf<A> | Promise<CommandOf<A>>;

/** `.one`: the record of the id in `input[aggregate.idField]`. */
export const one = <I extends Input>(aggregate: AnyAggregate): Handler<I> =>
  async (input, ctx) => ctx.one(aggregate, String(input[aggregate.idField]));

/** `.all`: every record, newest first. */
export const all = (aggregate: AnyAggregate): Handler<unknown> => async (_input, ctx) => ctx.list(aggregate);

/** A command on the record its data names: answers the record after it. */
export const change = <I extends Input>(aggregate: AnyAggregate, build: CommandBuilder<I>): Handler<I> =>
  async (input, ctx) => {
    const command = await build(input, ctx);
    const { after } = await ctx.execute(aggregate, idOf(aggregate, command), command as never);
    return ctx.view(aggregate, after as Doc | null);
  };

const idOf = (aggregate: AnyAggregate, command: Command) => String((command.data as Input)[aggregate.idField]);

/** A removal: answers the record as it was. */
export const removal = <I extends Input>(aggregate: AnyAggregate, build: CommandBuilder<I>): Handler<I> =>
  async (input, ctx) => {
    const command = await build(input, ctx);
    const { before } = await ctx.execute(aggregate, idOf(aggregate, command), command as never);
    return ctx.view(aggregate, before as Doc | null);
  };

/**
 * An operation whose effect lives in a capability not built yet: the record must exist (else
 * NOT_FOUND), then it answers NOT_IMPLEMENTED naming the capability, and appends nothing.
 */
export const pending = <I extends Input>(capability: string, aggregate?: AnyAggregate, field?: string): Handler<I> =>
  async (input, ctx) => {
    if (aggregate) {
      const key = field ?? aggregate.idField;
      await ctx.mustLoad(aggregate, String(input[key]), key);
    }
    throw notImplemented(capability);
  };

