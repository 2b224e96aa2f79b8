import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, mediaResponse, noContentSchema } from '#shared/api.ts';
import {
  priceBookImportField,
  priceBookImportLimits,
  priceBookImportQuerySchema,
  priceBookImportResultSchema,
  priceBookItemCreateSchema,
  priceBookItemResponseSchema,
  priceBookItemSchema,
  priceBookItemStatusSchema,
  priceBookItemUpdateSchema,
  priceBookListQuerySchema,
  priceBookListResponseSchema,
  priceBookLookupQuerySchema,
  priceBookLookupResponseSchema,
  priceBookMessages,
} from '#shared/price-book.ts';
import { z } from 'zod';
import { AppError } from '#server/errors.ts';
import { sendNoContent } from '#server/lib/no-content.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import { discardRestOfUpload } from '#server/modules/customers/index.ts';
import { adminOnly } from '#server/plugins/session.ts';
import type { PriceBookService } from './price-book.service.ts';

type Options = { priceBook: PriceBookService };

const itemAnswer = z.object({ item: priceBookItemSchema });

/**
 * The price book (decision 024-f). Every staff member of the office (admins, dispatchers) reads it
 * and exports it; creating, editing, (de)activating, deleting and importing are admins' only
 * (`adminOnly`). Technicians are refused all of /api/admin by the session guard.
 */
export async function priceBookRoutes(app: FastifyInstance, { priceBook }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/price-book',
    { schema: { querystring: priceBookListQuerySchema, response: { 200: priceBookListResponseSchema } } },
    async (request) => priceBook.list(request.query),
  );

  routes.get(
    '/api/admin/price-book/lookup',
    { schema: { querystring: priceBookLookupQuerySchema, response: { 200: priceBookLookupResponseSchema } } },
    async (request) => ({ items: await priceBook.findByIds(request.query.ids) }),
  );

  routes.get(
    '/api/admin/price-book/export.csv',
    { exposeHeadRoute: false, schema: { querystring: priceBookListQuerySchema, response: { 200: mediaResponse('text/csv', 'The price book as CSV (the filter applies, paging does not)') } } },
    async (request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="price-book.csv"')
        .header('x-content-type-options', 'nosniff')
        .send(await priceBook.exportCsv(request.query)),
  );

  routes.get(
    '/api/admin/price-book/:id',
    { schema: { params: idParamsSchema, response: { 200: priceBookItemResponseSchema } } },
    async (request) => priceBook.get(request.params.id),
  );

  routes.post(
    '/api/admin/price-book',
    { config: adminOnly, schema: { body: priceBookItemCreateSchema, response: { 201: itemAnswer } } },
    async (request, reply) => reply.status(201).send({ item: await priceBook.create(request.body, actorOf(request)) }),
  );

  routes.put(
    '/api/admin/price-book/:id',
    { config: adminOnly, schema: { params: idParamsSchema, body: priceBookItemUpdateSchema, response: { 200: itemAnswer } } },
    async (request) => ({ item: await priceBook.update(request.params.id, request.body, actorOf(request)) }),
  );

  routes.post(
    '/api/admin/price-book/:id/status',
    { config: adminOnly, schema: { params: idParamsSchema, body: priceBookItemStatusSchema, response: { 200: itemAnswer } } },
    async (request) => ({ item: await priceBook.setActive(request.params.id, request.body, actorOf(request)) }),
  );

  routes.delete(
    '/api/admin/price-book/:id',
    { config: adminOnly, schema: { params: idParamsSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await priceBook.remove(request.params.id, actorOf(request));
      return sendNoContent(reply);
    },
  );

  // The only multipart route of the module: the parser lives in this encapsulated scope.
  await app.register(importRoute, { priceBook });
}

async function importRoute(app: FastifyInstance, { priceBook }: Options): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: priceBookImportLimits.maxBytes, files: 1, fields: 5, fieldSize: 1024, fieldNameSize: 100, parts: 6, headerPairs: 100 },
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // A multipart body (field `file`): documented, not validated as JSON.
  routes.post(
    '/api/admin/price-book/import',
    {
      config: adminOnly,
      schema: { consumes: ['multipart/form-data'], querystring: priceBookImportQuerySchema, response: { 200: priceBookImportResultSchema } },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', priceBookMessages.notMultipart);
      try {
        const bytes = await uploadedCsv(request);
        return await priceBook.importCsv(bytes, request.query.dryRun === 'true', actorOf(request));
      } catch (error) {
        discardRestOfUpload(request.raw);
        throw error;
      }
    },
  );
}

/** The one uploaded file's bytes (at most the limit: a bigger file is a 413, never read whole); a second file is refused. */
async function uploadedCsv(request: FastifyRequest): Promise<Buffer> {
  try {
    let bytes: Buffer | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== priceBookImportField) throw new AppError('VALIDATION_FAILED', priceBookMessages.wrongField);
      if (bytes) throw new AppError('VALIDATION_FAILED', priceBookMessages.oneFile);
      // Images, PDFs, archives and spreadsheets' own formats are refused by type before their bytes are read.
      if (/^(image|audio|video)\/|^application\/(pdf|zip|x-zip|vnd\.openxmlformats|vnd\.oasis)/i.test(part.mimetype)) {
        throw new AppError('VALIDATION_FAILED', priceBookMessages.notText);
      }
      bytes = await part.toBuffer();
    }
    if (!bytes) throw new AppError('VALIDATION_FAILED', priceBookMessages.noFile);
    return bytes;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', priceBookMessages.tooLarge);
    if (code === 'FST_FILES_LIMIT') throw new AppError('VALIDATION_FAILED', priceBookMessages.oneFile);
    if (code?.startsWith('FST_') || (error instanceof Error && /multipart|boundary|unexpected end/i.test(error.message))) {
      throw new AppError('VALIDATION_FAILED', priceBookMessages.notMultipart);
    }
    throw error;
  }
}
