import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  applyCreditSchema,
  creditNoteCreateSchema,
  invoiceCreateSchema,
  invoiceDetailResponseSchema,
  invoiceDraftUpdateSchema,
  invoiceListQuerySchema,
  invoiceListResponseSchema,
  invoicePaymentParamsSchema,
  invoiceVoidSchema,
  paymentCreateSchema,
  paymentResponseSchema,
  receivablesSummarySchema,
  refundCreateSchema,
} from '#shared/invoice.ts';
import { invoiceIssueResponseSchema } from '#shared/invoice-link.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import { adminOnly } from '#server/plugins/session.ts';
import type { InvoiceService } from './invoice.service.ts';

type Options = { invoices: InvoiceService };

/**
 * Invoices, credit notes and payments for the office (issue 20, decision 024-g). Every
 * /api/admin path passes the session guard (plugins/session.ts): technicians are refused there;
 * admins and dispatchers may do everything but void and refund, which are admins' (adminOnly).
 */
export async function invoiceRoutes(app: FastifyInstance, { invoices }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const detail = { 200: invoiceDetailResponseSchema };

  routes.get('/api/admin/invoices', { schema: { querystring: invoiceListQuerySchema, response: { 200: invoiceListResponseSchema } } }, async (request) =>
    invoices.list(request.query),
  );

  routes.get('/api/admin/invoices/summary', { schema: { response: { 200: receivablesSummarySchema } } }, async () => invoices.receivables());

  routes.post('/api/admin/invoices', { schema: { body: invoiceCreateSchema, response: { 201: invoiceDetailResponseSchema } } }, async (request, reply) =>
    reply.status(201).send(await invoices.create(request.body, actorOf(request))),
  );

  routes.post(
    '/api/admin/work-orders/:id/invoice',
    { schema: { params: idParamsSchema, response: { 201: invoiceDetailResponseSchema } } },
    async (request, reply) => reply.status(201).send(await invoices.createFromWorkOrder(request.params.id, actorOf(request))),
  );

  routes.get('/api/admin/invoices/:id', { schema: { params: idParamsSchema, response: detail } }, async (request) => invoices.detail(request.params.id));

  routes.put('/api/admin/invoices/:id', { schema: { params: idParamsSchema, body: invoiceDraftUpdateSchema, response: detail } }, async (request) =>
    invoices.updateDraft(request.params.id, request.body, actorOf(request)),
  );

  routes.post('/api/admin/invoices/:id/issue', { schema: { params: idParamsSchema, response: { 200: invoiceIssueResponseSchema } } }, async (request) =>
    invoices.issue(request.params.id, actorOf(request)),
  );

  routes.post('/api/admin/invoices/:id/void', { config: adminOnly, schema: { params: idParamsSchema, body: invoiceVoidSchema, response: detail } }, async (request) =>
    invoices.voidInvoice(request.params.id, request.body.reason, actorOf(request)),
  );

  routes.post(
    '/api/admin/invoices/:id/credit-notes',
    { schema: { params: idParamsSchema, body: creditNoteCreateSchema, response: { 201: invoiceDetailResponseSchema } } },
    async (request, reply) => reply.status(201).send(await invoices.createCreditNote(request.params.id, request.body, actorOf(request))),
  );

  routes.post('/api/admin/invoices/:id/apply-credit', { schema: { params: idParamsSchema, body: applyCreditSchema, response: detail } }, async (request) =>
    invoices.applyCredit(request.params.id, request.body, actorOf(request)),
  );

  routes.post(
    '/api/admin/invoices/:id/payments',
    { schema: { params: idParamsSchema, body: paymentCreateSchema, response: { 201: paymentResponseSchema } } },
    async (request, reply) => reply.status(201).send(await invoices.recordPayment(request.params.id, request.body, actorOf(request))),
  );

  routes.post(
    '/api/admin/invoices/:id/payments/:paymentId/refunds',
    { config: adminOnly, schema: { params: invoicePaymentParamsSchema, body: refundCreateSchema, response: { 201: paymentResponseSchema } } },
    async (request, reply) => reply.status(201).send(await invoices.refund(request.params.id, request.params.paymentId, request.body, actorOf(request))),
  );
}
