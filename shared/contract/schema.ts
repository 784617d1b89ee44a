// Building blocks for the contract: every body and query is a closed object (unknown fields are
// rejected, never stripped), and the spec's bounds read the same in every group.
import { FormatRegistry, Type, type NumberOptions, type TLiteral, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (value) => EMAIL.test(value));

const ISO_INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|[+-](\d\d):(\d\d))$/i;

/**
 * An ISO-8601 date-time with its offset that names a real instant: a day the month has (JavaScript
 * would roll 2024-02-30 over to March), and in UTC still within the years 0000-9999, as the log's
 * `occurredAt` is written (past them, text order is no longer time order).
 */
export function isInstant(value: string): boolean {
  const parts = ISO_INSTANT.exec(value);
  if (!parts) return false;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = parts.slice(1).map((part) => Number(part ?? 0));
  // Day 0 of the next month is the month's last; setUTCFullYear, as Date.UTC reads years 0-99 as 1900-1999.
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year!, month!, 0);
  const daysInMonth = lastDay.getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour! > 23 || minute! > 59 || second > 59) return false;
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  const utcYear = new Date(Date.parse(value)).getUTCFullYear();
  return utcYear >= 0 && utcYear <= 9999;
}

if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', isInstant);
export const Instant = (description: string) => Type.String({ format: 'date-time', description });
/** A record's createdAt as an update may carry it: the record as it was read, sent back. */
export const CreatedAt = () => Opt(Instant('when the record was made: it cannot change, so only the value read back is taken'));

export const Str = () => Type.String();
/** Characters as a person counts them (code points): an emoji is one, where JavaScript's length says 2. */
export const characterCount = (text: string): number => [...text].length;
const AT_LEAST = /^at-least-(\d+)-characters$/;
/** The least number of characters a format made by `MinStr` asks for, or null for another format. */
export const leastCharactersOf = (format: string): number | null => {
  const least = AT_LEAST.exec(format)?.[1];
  return least === undefined ? null : Number(least);
};
/**
 * A string of at least `minLength` characters. Past one, a format counts them as code points:
 * `minLength` alone counts UTF-16 units, so four emoji would pass for eight characters.
 */
export const MinStr = (minLength = 1) => {
  if (minLength <= 1) return Type.String({ minLength });
  const format = `at-least-${minLength}-characters`;
  if (!FormatRegistry.Has(format)) FormatRegistry.Set(format, (value) => characterCount(value) >= minLength);
  return Type.String({ minLength, format });
};
const DIGITS = /^[0-9]{1,15}$/;
const WHOLE_NUMBER = /^whole-number-(\d+)-to-(\d+|any)$/;
/** The bounds a format made by `WholeNumberText` asks for, or null for another format. */
export const wholeNumberBoundsOf = (format: string): { minimum: number; maximum?: number } | null => {
  const [, minimum, maximum] = WHOLE_NUMBER.exec(format) ?? [];
  if (minimum === undefined) return null;
  return maximum === 'any' || maximum === undefined ? { minimum: Number(minimum) } : { minimum: Number(minimum), maximum: Number(maximum) };
};
/**
 * A whole number as a query string carries it, in decimal digits, within bounds. A format, not a
 * pattern: the refusal then says the number and its bounds in words, not a regular expression.
 */
export const WholeNumberText = (description: string, minimum: number, maximum?: number) => {
  const format = `whole-number-${minimum}-to-${maximum ?? 'any'}`;
  if (!FormatRegistry.Has(format)) {
    FormatRegistry.Set(format, (value) => DIGITS.test(value) && Number(value) >= minimum && (maximum === undefined || Number(value) <= maximum));
  }
  return Type.String({ format, description });
};
export const Email = () => Type.String({ format: 'email' });
export const Num = (options?: NumberOptions) => Type.Number(options);
export const Bool = () => Type.Boolean();
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
/** An optional field that may also be null: the spec's "nullable" when not marked req. */
export const OptNull = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
/** One of the listed strings; `enum` is kept on the schema so errors can list the choices. */
export const OneOf = <const V extends readonly string[]>(values: V): TUnion<TLiteral<V[number]>[]> =>
  Type.Union(values.map((value) => Type.Literal(value)), { enum: values });
export const Port = () => Type.Integer({ minimum: 1, maximum: 65535 });
export const Closed = <P extends TProperties>(properties: P): TObject<P> =>
  Type.Object(properties, { additionalProperties: false });

export const STATUSES = ['idle', 'running', 'done', 'error'] as const;
export type Status = (typeof STATUSES)[number];
export const Status = () => OneOf(STATUSES);
export const BUILD_TYPES = ['containerfile', 'alpha_buildpacks', 'beta_buildpacks', 'gamma_packs'] as const;
export const APP_SOURCE_TYPES = ['forge', 'container', 'git'] as const;
export const COMPOSE_SOURCE_TYPES = ['git', 'forge', 'raw'] as const;
export const COMPOSE_TYPES = ['container-compose', 'stack'] as const;
export const REGISTRY_TYPES = ['selfHosted', 'cloud'] as const;
export const PROTOCOLS = ['tcp', 'udp'] as const;
export const ROLES = ['admin', 'user'] as const;
// dbepsilon (the key-value kind) is Berth's extension of the spec's list, in the same style.
export const BACKUP_DATABASE_TYPES = ['dbgamma', 'dbalpha', 'dbbeta', 'dbdelta', 'dbepsilon'] as const;
