import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { mediaResponse } from '#shared/api.ts';
import { exportPath, exportRangeQuerySchema } from '#shared/exports.ts';
import type { CsvFile, ExportService } from './export.service.ts';

type Options = { exports: ExportService };

/** Bytes buffered ahead of a slow client: the next page is read only when the socket has taken these. */
const streamHighWaterMark = 64 * 1024;

/**
 * Streams a CSV download. Readable.from pulls the next chunk (one page of rows, one query) only
 * when the response has room, so a slow or stopped client stops the reading too; a client that
 * goes away ends the generator (no further queries).
 */
function sendCsv(reply: FastifyReply, csv: CsvFile): FastifyReply {
  const stream = Readable.from(csv.chunks, { objectMode: false, highWaterMark: streamHighWaterMark });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .send(stream);
}

/** Admin only: /api/admin/settings/* is refused to other staff by the session guard (plugins/session.ts). */
export async function exportRoutes(app: FastifyInstance, { exports }: Options): Promise<void> {
  // No automatic HEAD routes: each would start an export only to throw its rows away.
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const response = { 200: mediaResponse('text/csv', 'The CSV file, streamed') };
  const options = { exposeHeadRoute: false, schema: { response } };
  routes.get(exportPath('customers'), options, async (_request, reply) => sendCsv(reply, exports.customers()));
  routes.get(exportPath('work-orders'), options, async (_request, reply) => sendCsv(reply, exports.workOrders()));
  routes.get(exportPath('leads'), options, async (_request, reply) => sendCsv(reply, exports.leads()));

  // The billing files (decision 025-b): an optional date range, checked before anything is read.
  const ranged = { exposeHeadRoute: false, schema: { querystring: exportRangeQuerySchema, response } };
  routes.get(exportPath('invoices'), ranged, async (request, reply) => sendCsv(reply, exports.invoices(request.query)));
  routes.get(exportPath('payments'), ranged, async (request, reply) => sendCsv(reply, exports.payments(request.query)));
  routes.get(exportPath('quickbooks-invoices'), ranged, async (request, reply) => sendCsv(reply, exports.quickBooksInvoices(request.query)));
}
