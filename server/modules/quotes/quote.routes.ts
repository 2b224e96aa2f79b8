import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, mediaResponse } from '#shared/api.ts';
import {
  quoteCancelSchema,
  quoteCreateSchema,
  quoteDetailResponseSchema,
  quoteListQuerySchema,
  quoteListResponseSchema,
  quoteSendResponseSchema,
  quoteUpdateSchema,
} from '#shared/quote.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { QuoteService } from './quote.service.ts';

/**
 * Quotes for the office (issue 20, decision 025-c). Every /api/admin path passes the session
 * guard (plugins/session.ts): technicians are refused there; admins and dispatchers quote.
 */
export async function quoteRoutes(app: FastifyInstance, { quotes }: { quotes: QuoteService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const detail = { 200: quoteDetailResponseSchema };

  routes.get('/api/admin/quotes', { schema: { querystring: quoteListQuerySchema, response: { 200: quoteListResponseSchema } } }, async (request) => quotes.list(request.query));

  routes.post('/api/admin/quotes', { schema: { body: quoteCreateSchema, response: { 201: quoteDetailResponseSchema } } }, async (request, reply) =>
    reply.status(201).send(await quotes.create(request.body, actorOf(request))),
  );

  routes.get('/api/admin/quotes/:id', { schema: { params: idParamsSchema, response: detail } }, async (request) => quotes.detail(request.params.id));

  routes.put('/api/admin/quotes/:id', { schema: { params: idParamsSchema, body: quoteUpdateSchema, response: detail } }, async (request) =>
    quotes.update(request.params.id, request.body, actorOf(request)),
  );

  routes.post('/api/admin/quotes/:id/send', { schema: { params: idParamsSchema, response: { 200: quoteSendResponseSchema } } }, async (request) =>
    quotes.send(request.params.id, actorOf(request)),
  );

  routes.post('/api/admin/quotes/:id/revise', { schema: { params: idParamsSchema, response: detail } }, async (request) => quotes.revise(request.params.id, actorOf(request)));

  routes.post('/api/admin/quotes/:id/cancel', { schema: { params: idParamsSchema, body: quoteCancelSchema, response: detail } }, async (request) =>
    quotes.cancel(request.params.id, request.body.reason, actorOf(request)),
  );

  // Untyped reply: the body is the PNG's bytes.
  app.get<{ Params: { id: string } }>(
    '/api/admin/quotes/:id/signature',
    { schema: { params: idParamsSchema, response: { 200: mediaResponse('image/png', 'The signature drawn at approval') } } },
    async (request, reply) => {
      const image = await quotes.signature(request.params.id);
      return reply.header('content-type', image.contentType).header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff').send(image.bytes);
    },
  );
}
