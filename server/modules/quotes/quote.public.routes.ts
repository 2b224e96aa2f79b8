import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicQuoteResponseSchema, quoteApproveSchema, quoteDeclineSchema, quoteLinkParamsSchema } from '#shared/quote.ts';
import { markPrivate } from '#server/modules/invoices/index.ts';
import type { QuoteService } from './quote.service.ts';

/**
 * The customer's quote link (issue 20, decision 025-c): no session, the token is the only key.
 * Every route is rate-limited per client address; every link that does not open is the same 404
 * (document-links). Answers carry no-referrer, noindex and no-store.
 */
export async function quotePublicRoutes(app: FastifyInstance, options: { quotes: QuoteService; limitPerMinute: number }): Promise<void> {
  const { quotes } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: options.limitPerMinute, timeWindow: '1 minute' };
  const answerLimit = { max: Math.max(1, Math.ceil(options.limitPerMinute / 3)), timeWindow: '1 minute' };

  routes.get('/api/public/quotes/:token', { config: { rateLimit }, schema: { params: quoteLinkParamsSchema, response: { 200: publicQuoteResponseSchema } } }, async (request, reply) => {
    markPrivate(reply);
    return quotes.view(request.params.token);
  });

  routes.post(
    '/api/public/quotes/:token/approve',
    // A drawn signature is a data URL of at most 400,000 characters.
    { bodyLimit: 512 * 1024, config: { rateLimit: answerLimit }, schema: { params: quoteLinkParamsSchema, body: quoteApproveSchema, response: { 200: publicQuoteResponseSchema } } },
    async (request, reply) => {
      markPrivate(reply);
      return quotes.approve(request.params.token, request.body, request.ip);
    },
  );

  routes.post(
    '/api/public/quotes/:token/decline',
    { bodyLimit: 8 * 1024, config: { rateLimit: answerLimit }, schema: { params: quoteLinkParamsSchema, body: quoteDeclineSchema, response: { 200: publicQuoteResponseSchema } } },
    async (request, reply) => {
      markPrivate(reply);
      return quotes.decline(request.params.token, request.body, request.ip);
    },
  );
}
