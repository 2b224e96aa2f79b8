import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, mediaResponse } from '#shared/api.ts';
import { customerPhotoMessages } from '#shared/customer.ts';
import {
  techActionBatchResponseSchema,
  techActionBatchSchema,
  techActionResponseSchema,
  techBatchMaxBytes,
  techActionSchema,
  techPaymentResponseSchema,
  techPaymentSchema,
  techPhotoHeadersSchema,
  techPhotoParamsSchema,
  techPhotosResponseSchema,
  techSessionResponseSchema,
  techVisitParamsSchema,
  techVisitResponseSchema,
  techVisitsQuerySchema,
  techVisitsResponseSchema,
} from '#shared/tech.ts';
import { AppError } from '#server/errors.ts';
import { compressedJson, sendCompressedJson } from '#server/lib/compressed-json.ts';
import { discardRestOfUpload, registerPhotoMultipart, uploadedFiles } from '#server/modules/customers/index.ts';
import type { TechService } from './tech.service.ts';

type Options = { tech: TechService };

/** An image of a customer: personal data, never kept by the browser's HTTP cache (the app keeps its own copy). */
function sendImage(reply: FastifyReply, image: { contentType: string } & ({ bytes: Buffer } | { stream: Readable; size: number })) {
  reply.type(image.contentType).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').header('content-disposition', 'inline');
  // A photo comes as a stream from the disk or the bucket (decision 028-b), sent with its length.
  return 'stream' in image ? reply.header('content-length', image.size).send(image.stream) : reply.send(image.bytes);
}

/**
 * The technician app's API (issue 19). Every /api/tech path passes the session guard before
 * routing: a live session of a technician linked to a technician record (plugins/session.ts).
 * The office's view of a signature is here too, under /api/admin (staff only, as every admin route).
 */
export async function techRoutes(app: FastifyInstance, { tech }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/tech/session', { schema: { response: { 200: techSessionResponseSchema } } }, async (request) => tech.session(request.staffUser!));

  routes.get(
    '/api/tech/visits',
    { schema: { querystring: techVisitsQuerySchema, response: { 200: techVisitsResponseSchema } } },
    // The next days' visits (with customers, equipment, history) run to tens of kilobytes and
    // compress about 8 times: gzip when the phone accepts it (decision 022-d; Lighthouse on /tech,
    // slow networks). Parsed by the response schema first, so the answer is what it documents.
    async (request, reply) => sendCompressedJson(request, reply, compressedJson(JSON.stringify(techVisitsResponseSchema.parse(await tech.visits(request.staffUser!, request.query))))),
  );

  routes.get(
    '/api/tech/visits/:id',
    { schema: { params: techVisitParamsSchema, response: { 200: techVisitResponseSchema } } },
    async (request) => ({ visit: await tech.visit(request.staffUser!, request.params.id) }),
  );

  routes.post(
    '/api/tech/visits/:id/actions',
    // The signature's data URL is at most 400,000 characters; the rest of an action is small.
    { bodyLimit: 512 * 1024, schema: { params: techVisitParamsSchema, body: techActionSchema, response: { 200: techActionResponseSchema } } },
    async (request) => tech.act(request.staffUser!, request.params.id, request.body),
  );

  routes.post(
    '/api/tech/visits/:id/actions/batch',
    // Up to techBatchMaxActions actions (a 400 above that); a longer body is a 413 before parsing.
    {
      bodyLimit: techBatchMaxBytes,
      schema: { params: techVisitParamsSchema, body: techActionBatchSchema, response: { 200: techActionBatchResponseSchema } },
    },
    async (request) => tech.actBatch(request.staffUser!, request.params.id, request.body.actions),
  );

  routes.post(
    '/api/tech/visits/:id/payments',
    // 201: recorded; 200: this key was recorded before (a replay of the phone's queue), the same payment.
    { schema: { params: techVisitParamsSchema, body: techPaymentSchema, response: { 200: techPaymentResponseSchema, 201: techPaymentResponseSchema } } },
    async (request, reply) => {
      const { status, ...answer } = await tech.recordPayment(request.staffUser!, request.params.id, request.body);
      return reply.status(status).send(answer);
    },
  );

  routes.get('/api/tech/visits/:id/signature', { schema: { params: techVisitParamsSchema, response: { 200: mediaResponse('image/png', 'The customer’s signature') } } }, async (request, reply) =>
    sendImage(reply, await tech.signature(request.staffUser!, request.params.id)),
  );

  routes.get(
    '/api/tech/photos/:photoId/:variant',
    { schema: { params: techPhotoParamsSchema, response: { 200: mediaResponse('image/*', 'The photo in the size asked for') } } },
    async (request, reply) => sendImage(reply, await tech.photoFile(request.staffUser!, request.params.photoId, request.params.variant)),
  );

  routes.get(
    '/api/admin/work-orders/:id/signature',
    { schema: { params: idParamsSchema, response: { 200: mediaResponse('image/png', 'The customer’s signature of the completed visit') } } },
    async (request, reply) => sendImage(reply, await tech.signature('office', request.params.id)),
  );

  await app.register(photoUploadRoute, { tech });
}

/** The multipart parser lives in this encapsulated scope only, as the office's photo upload's does. */
async function photoUploadRoute(app: FastifyInstance, { tech }: Options): Promise<void> {
  await registerPhotoMultipart(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/api/tech/visits/:id/photos',
    {
      schema: {
        consumes: ['multipart/form-data'],
        params: techVisitParamsSchema,
        headers: techPhotoHeadersSchema,
        response: { 200: techPhotosResponseSchema, 201: techPhotosResponseSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', customerPhotoMessages.notMultipart);
      try {
        const { photos, replayed } = await tech.addPhotos(request.staffUser!, request.params.id, request.headers['idempotency-key'], uploadedFiles(request));
        // A replay stored nothing: its files were not read.
        if (replayed) discardRestOfUpload(request.raw);
        return reply.status(replayed ? 200 : 201).send({ photos });
      } catch (error) {
        discardRestOfUpload(request.raw);
        throw error;
      }
    },
  );
}
