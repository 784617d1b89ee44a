// Building blocks for the contract: every body and query is a closed object (unknown fields are
// rejected, never stripped), and the spec's bounds read the same in every group.
import { FormatRegistry, Type, type NumberOptions, type TLiteral, type TObject, type TProperties, type TSchema, type TUnion } from '@sinclair/typebox';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
if (!FormatRegistry.Has('email')) FormatRegistry.Set('email', (value) => EMAIL.test(value));

export const Str = () => Type.String();
export const MinStr = (minLength = 1) => Type.String({ minLength });
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
