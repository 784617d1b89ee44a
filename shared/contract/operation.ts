import type { Static, TObject } from '@sinclair/typebox';
import { Closed } from './schema.ts';

export type Method = 'GET' | 'POST';

/** One row of the interface: where it answers and what it accepts. */
export interface Operation<I extends TObject = TObject> {
  readonly name: string;
  readonly group: string;
  readonly procedure: string;
  readonly method: Method;
  readonly input: I;
}

interface Shape<I extends TObject> {
  readonly method: Method;
  readonly input: I;
}

export const get = <I extends TObject>(input: I): Shape<I> => ({ method: 'GET', input });
export const post = <I extends TObject>(input: I): Shape<I> => ({ method: 'POST', input });
export const none = Closed({});

export type Group<S extends Record<string, Shape<TObject>>> = {
  readonly [K in keyof S]: Operation<S[K]['input']>;
};

export function group<const S extends Record<string, Shape<TObject>>>(name: string, shapes: S): Group<S> {
  const operations: Record<string, Operation> = {};
  for (const [procedure, shape] of Object.entries(shapes)) {
    operations[procedure] = { name: `${name}.${procedure}`, group: name, procedure, ...shape };
  }
  return operations as Group<S>;
}

export type InputOf<O> = O extends Operation<infer I> ? Static<I> : never;
