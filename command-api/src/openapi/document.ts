// The OpenAPI 3.1 document of the whole contract: one path per operation, its input as query
// parameters (GET) or a JSON body (POST), its declared answer, the error shape on every failure
// status, and the Bearer scheme. Generated from the same table the routes are built from; what each
// operation does (its `summary`, the lead sentence, and `description`, the whole) from the contract's
// table of summaries.
import type { TObject, TSchema } from '@sinclair/typebox';
import { operations, PUBLIC_OPERATIONS } from '@berth/shared/contract/index';
import type { Operation } from '@berth/shared/contract/operation';
import { leadOf, summaryOf } from '@berth/shared/contract/summaries';

type Json = Record<string, unknown>;

/** A TypeBox schema as plain JSON Schema (its symbol-keyed markers dropped). */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

const ERROR_STATUSES: Record<string, string> = {
  400: 'Invalid input: one issue per failed field, naming it',
  401: 'Missing, malformed, expired or revoked token',
  403: 'Signed in, but not allowed',
  404: 'A record the input names does not exist',
  409: 'Conflicts with the current state (a name taken, a record in use, a concurrent change)',
  429: 'Too many failed attempts; see Retry-After',
  500: 'A fault of Berth',
  501: 'The capability is not built yet; nothing changed',
};

/** Answers that are not one JSON document. */
const STREAMED: Record<string, Json> = {
  'events.follow': { 'text/event-stream': { schema: { type: 'string', description: 'one `id`/`event`/`data` frame per event' } } },
  'events.export': { 'application/x-ndjson': { schema: { type: 'string', description: 'one recorded event per line' } } },
  'deployment.logs': { 'text/event-stream': { schema: { type: 'string', description: 'with follow=true: one `line` event a line of the log, then an `end` event' } } },
};

/** What the operation does: the summaries table covers every operation (a compile-time check), so this never falls back in practice. */
function described(operation: Operation): Json {
  const text = summaryOf(operation.name) ?? operation.name;
  return { summary: leadOf(text), description: text };
}

function parametersOf(input: TObject): Json[] {
  const required = new Set(input.required ?? []);
  return Object.entries(input.properties).map(([name, schema]) => ({
    name, in: 'query', required: required.has(name), schema: plain(schema as TSchema),
  }));
}

function pathItem(operation: Operation): Json {
  const answer: Json = { 'application/json': { schema: plain(operation.output) } };
  const errors = Object.fromEntries(Object.entries(ERROR_STATUSES).map(([status, description]) => [status, {
    description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  }]));
  const body = operation.method === 'GET'
    ? { parameters: parametersOf(operation.input) }
    : { requestBody: { required: (operation.input.required ?? []).length > 0, content: { 'application/json': { schema: plain(operation.input) } } } };
  return {
    [operation.method.toLowerCase()]: {
      operationId: operation.name,
      tags: [operation.group],
      ...described(operation),
      ...body,
      // Token-issuing operations accept any Authorization header; auth.createAdmin takes the setup token.
      security: PUBLIC_OPERATIONS.has(operation.name) ? [] : [{ bearer: [] }],
      responses: { 200: { description: 'The answer', content: { ...answer, ...STREAMED[operation.name] } }, ...errors },
    },
  };
}

export function openApiDocument(version: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Berth',
      version,
      description: 'The RPC-style interface of Berth: every operation at `/api/<group>.<procedure>`, '
        + 'GET with a query or POST with a JSON body. Failures answer `{ message, code, issues }`.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(operations.map((operation) => operation.group))].map((name) => ({ name })),
    paths: Object.fromEntries(operations.map((operation) => [`/api/${operation.name}`, pathItem(operation)])),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or API token' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['message', 'code', 'issues'],
          properties: {
            message: { type: 'string' },
            code: { type: 'string', examples: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'] },
            issues: {
              type: 'array',
              items: { type: 'object', required: ['message'], properties: { message: { type: 'string' }, path: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}
