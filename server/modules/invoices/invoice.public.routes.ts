import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invoiceCheckoutResponseSchema, invoiceLinkParamsSchema, invoiceLinkQuerySchema, publicInvoiceResponseSchema, stripeWebhookResponseSchema } from '#shared/invoice-link.ts';
import { WebhookSignatureError } from '#server/adapters/payments/index.ts';
import { errorBodySchema, mediaResponse } from '#shared/api.ts';
import { renderBillingPdf } from '#server/lib/billing-pdf/index.ts';
import { RetryLaterError, type OnlineInvoices } from './invoice.online.ts';

/** The Stripe webhook's path: COMPANY_SITE_URL + this is the endpoint to register in Stripe's dashboard. */
export const stripeWebhookPath = '/api/public/payments/stripe/webhook';

/** A customer's link is a secret: never sent on as a referrer, never indexed, never cached by a shared cache. */
export function markPrivate(reply: FastifyReply): FastifyReply {
  return reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'private, no-store');
}

/**
 * The customer's invoice link (issue 20, decision 024-h): no session, the token is the only key.
 * Every route is rate-limited per client address; every link that does not open is the same 404
 * (document-links). Stripe's webhook is in its own scope (a raw-body parser) and not rate-limited.
 */
export async function invoicePublicRoutes(app: FastifyInstance, options: { online: OnlineInvoices; limitPerMinute: number }): Promise<void> {
  const { online } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: options.limitPerMinute, timeWindow: '1 minute' };

  routes.get(
    '/api/public/invoices/:token',
    {
      config: { rateLimit },
      schema: {
        params: invoiceLinkParamsSchema,
        querystring: invoiceLinkQuerySchema,
        response: { 200: publicInvoiceResponseSchema },
      },
    },
    async (request, reply) => {
      markPrivate(reply);
      return online.view(request.params.token, request.query.checkout);
    },
  );

  // Untyped reply: the body is the PDF's bytes (the OpenAPI document says application/pdf).
  app.get<{ Params: { token: string } }>(
    '/api/public/invoices/:token/pdf',
    { config: { rateLimit }, schema: { params: invoiceLinkParamsSchema, response: { 200: mediaResponse('application/pdf', 'The invoice as a PDF') } } },
    async (request, reply) => {
      markPrivate(reply);
      const { document, fileName } = await online.pdfDocument(request.params.token);
      const pdf = await renderBillingPdf(document);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${fileName}"`).send(pdf);
    },
  );

  routes.post(
    '/api/public/invoices/:token/checkout',
    {
      // No body: the action is in the address.
      bodyLimit: 1024,
      config: {
        rateLimit: {
          max: Math.max(1, Math.ceil(options.limitPerMinute / 3)),
          timeWindow: '1 minute',
        },
      },
      schema: {
        params: invoiceLinkParamsSchema,
        response: { 200: invoiceCheckoutResponseSchema },
      },
    },
    async (request, reply) => {
      markPrivate(reply);
      return online.checkout(request.params.token);
    },
  );

  // Without Stripe configured there is no webhook at all: the path answers the usual 404.
  if (!online.isConfigured) return;
  await app.register(async (scope) => {
    // The signature is over the exact bytes received: no JSON parsing before the check.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    scope.post(stripeWebhookPath, { bodyLimit: 256 * 1024, schema: { response: { 200: stripeWebhookResponseSchema, 400: errorBodySchema, 503: errorBodySchema } } }, async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      try {
        const result = await online.handleWebhook(body, Array.isArray(header) ? header[0] : header);
        return reply.status(200).send({ received: true as const, outcome: result.outcome });
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          request.log.warn({ reason: error.reason }, 'stripe webhook: signature refused');
          return reply.status(400).send({
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Invalid signature.',
            },
          });
        }
        if (error instanceof RetryLaterError) {
          request.log.warn({ reason: error.message }, 'stripe webhook: to be retried');
          return reply.status(503).send({
            error: { code: 'INTERNAL', message: 'Try again later.' },
          });
        }
        throw error;
      }
    });
  });
}
