import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, mediaResponse } from '#shared/api.ts';
import { billingDocumentFromDetail } from '#shared/invoice.ts';
import { invoiceSendResponseSchema } from '#shared/invoice-link.ts';
import { renderBillingPdf } from '#server/lib/billing-pdf/index.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { InvoiceSending } from './invoice.sending.ts';
import type { InvoiceService } from './invoice.service.ts';

/**
 * The office's invoice documents (issue 20, decision 024-h): the PDF (the same BillingDocument the
 * detail screen shows) and "Send again". /api/admin: a staff session; technicians are refused by
 * the session guard.
 */
export async function invoiceDocumentRoutes(app: FastifyInstance, { invoices, sending }: { invoices: InvoiceService; sending: InvoiceSending }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Untyped reply: the body is the PDF's bytes (the OpenAPI document says application/pdf).
  app.get<{ Params: { id: string } }>(
    '/api/admin/invoices/:id/pdf',
    { schema: { params: idParamsSchema, response: { 200: mediaResponse('application/pdf', 'The invoice as a PDF') } } },
    async (request, reply) => {
      const detail = await invoices.detail(request.params.id);
      const pdf = await renderBillingPdf(billingDocumentFromDetail(detail));
      const name = detail.invoice.invoiceNumber ?? `draft-${detail.invoice.id.slice(0, 8)}`;
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${name}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  routes.post(
    '/api/admin/invoices/:id/send',
    {
      schema: {
        params: idParamsSchema,
        response: { 200: invoiceSendResponseSchema },
      },
    },
    async (request) => sending.sendAgain(request.params.id, actorOf(request), invoices),
  );
}
