// Reads a contract schema back as the bounds it states, to build valid and invalid inputs from it.
import { OptionalKind, type TObject, type TSchema } from '@sinclair/typebox';

export interface FieldBounds {
  readonly name: string;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'unknown';
  readonly minLength?: number;
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
}

/**
 * A number that may also be one literal outside its range (a size: 0 for none, or from its least):
 * read as its range, whose breaches (below the least, past the most, not a number) it refuses.
 */
function rangeOf(schema: TSchema): TSchema {
  const variants = schema.anyOf as TSchema[] | undefined;
  const ranges = variants?.filter((variant) => variant.const === undefined) ?? [];
  const numeric = variants?.every((variant) => variant.type === 'number' || variant.type === 'integer');
  return numeric && ranges.length === 1 ? ranges[0]! : schema;
}

function unwrap(schema: TSchema): { schema: TSchema; nullable: boolean } {
  const variants = schema.anyOf as TSchema[] | undefined;
  if (variants && !schema.enum) {
    const others = variants.filter((variant) => variant.type !== 'null');
    if (others.length === 1 && others.length < variants.length) return { schema: rangeOf(others[0]!), nullable: true };
  }
  return { schema: rangeOf(schema), nullable: false };
}

export function fieldsOf(input: TObject): FieldBounds[] {
  const required = new Set(input.required ?? []);
  return Object.entries(input.properties as Record<string, TSchema>).map(([name, raw]) => {
    const { schema, nullable } = unwrap(raw as TSchema);
    const type = schema.enum ? 'string' : (schema.type as FieldBounds['type'] | undefined) ?? 'unknown';
    return {
      name,
      required: required.has(name) && !(OptionalKind in raw),
      nullable,
      type,
      minLength: schema.minLength as number | undefined,
      format: schema.format as string | undefined,
      enum: schema.enum as string[] | undefined,
      minimum: schema.minimum as number | undefined,
      maximum: schema.maximum as number | undefined,
      default: schema.default,
    };
  });
}

/** Values that break one stated bound each, with what they break. */
export function breaches(field: FieldBounds): Array<{ bound: string; value: unknown }> {
  const found: Array<{ bound: string; value: unknown }> = [];
  if (field.required) found.push({ bound: 'required', value: undefined });
  if (!field.nullable && field.type !== 'unknown') found.push({ bound: 'not nullable', value: null });
  switch (field.type) {
    case 'string':
      found.push({ bound: 'string type', value: 42 });
      if (field.minLength) found.push({ bound: `min length ${field.minLength}`, value: 'x'.repeat(field.minLength - 1) });
      if (field.format === 'email') found.push({ bound: 'email format', value: 'not-an-email' });
      if (field.enum) found.push({ bound: `one of ${field.enum.join('/')}`, value: '__not_listed__' });
      break;
    case 'number':
    case 'integer':
      found.push({ bound: 'number type', value: 'seven' });
      if (field.type === 'integer') found.push({ bound: 'integer', value: 1.5 });
      if (field.minimum !== undefined) found.push({ bound: `minimum ${field.minimum}`, value: field.minimum - 1 });
      if (field.maximum !== undefined) found.push({ bound: `maximum ${field.maximum}`, value: field.maximum + 1 });
      break;
    case 'boolean':
      found.push({ bound: 'boolean type', value: 'yes' });
      break;
    case 'array':
      found.push({ bound: 'array type', value: 'not-a-list' });
      break;
    case 'object':
      found.push({ bound: 'object type', value: 'not-an-object' });
      break;
  }
  return found;
}
