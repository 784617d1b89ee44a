// Answers are written with their operation's declared schema (fast-json-stringify): a field the
// schema does not name is never written, whatever the handler put in the record.
import type { TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';

type Json = Record<string, unknown>;
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * The contract's schema as the serialiser reads it fastest: a choice of string constants becomes
 * a string, and "T or null" a type list, so no value has to be tried against each branch.
 */
function simplified(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplified);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Json;
  const branches = node.anyOf as Json[] | undefined;
  if (branches?.every((branch) => typeof branch.const === 'string')) {
    return { type: 'string', enum: branches.map((branch) => branch.const) };
  }
  if (branches?.length === 2) {
    const [value, other] = branches[0]!.type === 'null' ? [branches[1]!, branches[0]!] : [branches[0]!, branches[1]!];
    if (other.type === 'null' && PRIMITIVES.has(String(value.type))) return { ...value, type: [value.type, 'null'] };
  }
  // Own string keys only: TypeBox's symbol-keyed markers are not part of the JSON schema.
  const simple = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, simplified(value)]));
  if (simple.type === 'object' && typeof simple.properties === 'object' && simple.properties !== null) {
    // Required ones only: an optional field that is absent stays absent.
    const required = new Set(Array.isArray(simple.required) ? simple.required as string[] : []);
    simple.properties = Object.fromEntries(Object.entries(simple.properties as Record<string, Json>).map(([key, property]) =>
      [key, required.has(key) && nullable(property) && !('default' in property) ? { ...property, default: null } : property]));
  }
  return simple;
}

/**
 * Whether the field may be null. A record a read model kept from before such a field existed
 * (until the rebuild at start replaces it) then answers it as null rather than failing as
 * "required": the serialiser writes a missing field's default.
 */
const nullable = (property: Json): boolean =>
  (Array.isArray(property.type) && property.type.includes('null'))
  || (Array.isArray(property.anyOf) && (property.anyOf as Json[]).some((branch) => branch.type === 'null'));

const compiled = new WeakMap<TSchema, (answer: unknown) => string>();

/** The writer of one declared answer, compiled once on first use. */
export function serializerOf(schema: TSchema): (answer: unknown) => string {
  let write = compiled.get(schema);
  if (!write) {
    write = fastJson(simplified(schema) as Parameters<typeof fastJson>[0]) as (answer: unknown) => string;
    compiled.set(schema, write);
  }
  return write;
}
