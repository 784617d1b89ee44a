import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { Closed } from './schema.ts';

export type Method = 'GET' | 'POST';

/** One row of the interface: where it answers, what it accepts and what it answers. */
export interface Operation<I extends TObject = TObject, O extends TSchema = TSchema> {
  readonly name: string;
  readonly group: string;
  readonly procedure: string;
  readonly method: Method;
  readonly input: I;
  /** The answer's schema: answers are serialised with it, so a field it does not name never leaves the server. */
  readonly output: O;
}

interface Shape<I extends TObject, O extends TSchema> {
  readonly method: Method;
  readonly input: I;
  readonly output: O;
}

export const get = <I extends TObject, O extends TSchema>(input: I, output: O): Shape<I, O> => ({ method: 'GET', input, output });
export const post = <I extends TObject, O extends TSchema>(input: I, output: O): Shape<I, O> => ({ method: 'POST', input, output });
export const none = Closed({});

type AnyShape = Shape<TObject, TSchema>;

export type Group<S extends Record<string, AnyShape>> = {
  readonly [K in keyof S]: Operation<S[K]['input'], S[K]['output']>;
};

export function group<const S extends Record<string, AnyShape>>(name: string, shapes: S): Group<S> {
  const operations: Record<string, Operation> = {};
  for (const [procedure, shape] of Object.entries(shapes)) {
    operations[procedure] = { name: `${name}.${procedure}`, group: name, procedure, ...shape };
  }
  return operations as Group<S>;
}

export type InputOf<O> = O extends Operation<infer I> ? Static<I> : never;
export type OutputOf<O> = O extends Operation<TObject, infer A> ? Static<A> : never;
