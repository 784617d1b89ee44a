// `/api/openapi.json` and the reference page `/api/reference`, both built once from the contract.
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './document.ts';
import { referencePage } from './page.ts';

const VERSION = '1.0.0';

export function apiDocument(app: FastifyInstance): void {
  const document = openApiDocument(VERSION);
  const json = JSON.stringify(document);
  const page = referencePage(document);
  app.get('/api/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(json));
  app.get('/api/reference', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
