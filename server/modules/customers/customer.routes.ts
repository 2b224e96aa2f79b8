import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema, mediaResponse, noContentSchema } from '#shared/api.ts';
import {
  customerInputSchema,
  customerListQuerySchema,
  customerListResponseSchema,
  customerLookupQuerySchema,
  customerLookupResponseSchema,
  customerPhotosResponseSchema,
  customerProfileResponseSchema,
  customerResponseSchema,
  photoParamsSchema,
  customerPhotoMessages,
  photoUploadField,
  photoUploadLimits,
  type CustomerPhotoVariant,
} from '#shared/customer.ts';
import { AppError } from '#server/errors.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import { adminOnly } from '#server/plugins/session.ts';
import { sendNoContent } from '#server/lib/no-content.ts';
import type { CustomerService, UploadedFile } from './customer.service.ts';
import { fileNameForMessage } from './photo-pipeline.ts';

type Options = { customers: CustomerService };
type CustomerParams = { Params: { id: string } };
type PhotoParams = { Params: { id: string; photoId: string } };

/** Staff only: every /api/admin path passes the session guard (plugins/session.ts) before routing. */
export async function customerRoutes(app: FastifyInstance, { customers }: Options): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/admin/customers',
    { schema: { querystring: customerListQuerySchema, response: { 200: customerListResponseSchema } } },
    async (request) => customers.list(request.query),
  );

  routes.get(
    '/api/admin/customers/lookup',
    { schema: { querystring: customerLookupQuerySchema, response: { 200: customerLookupResponseSchema } } },
    async (request) => customers.lookup(request.query.q),
  );

  routes.post(
    '/api/admin/customers',
    { schema: { body: customerInputSchema, response: { 201: customerResponseSchema } } },
    async (request, reply) => {
      const customer = await customers.create(request.body, actorOf(request));
      return reply.status(201).send({ customer });
    },
  );

  routes.get('/api/admin/customers/:id', { schema: { params: idParamsSchema, response: { 200: customerProfileResponseSchema } } }, async (request) =>
    customers.profile(request.params.id),
  );

  routes.put(
    '/api/admin/customers/:id',
    { schema: { params: idParamsSchema, body: customerInputSchema, response: { 200: customerResponseSchema } } },
    async (request) => ({ customer: await customers.update(request.params.id, request.body, actorOf(request)) }),
  );

  // Deleting destroys history others rely on: administrators only (decision 018-f).
  routes.delete(
    '/api/admin/customers/:id',
    { config: adminOnly, schema: { params: idParamsSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await customers.remove(request.params.id, actorOf(request));
      return sendNoContent(reply);
    },
  );

  const photoSchema = { params: photoParamsSchema, response: { 200: mediaResponse('image/*', 'The photo in the size asked for') } };
  for (const variant of ['display', 'thumbnail'] as const satisfies CustomerPhotoVariant[]) {
    app.get<PhotoParams>(`/api/admin/customers/:id/photos/:photoId/${variant}`, { schema: photoSchema }, async (request, reply) => {
      const photo = await customers.photoFile(request.params.id, request.params.photoId, variant);
      return reply
        .type(photo.contentType)
        // Customers' photos are personal data: never kept by the browser (a shared office computer
        // would keep them after sign-out), as every other staff answer (plugins/session.ts).
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('content-length', photo.size)
        .send(photo.stream);
    });
  }

  routes.delete(
    '/api/admin/customers/:id/photos/:photoId',
    { config: adminOnly, schema: { params: photoParamsSchema, response: { 204: noContentSchema } } },
    async (request, reply) => {
      await customers.removePhoto(request.params.id, request.params.photoId, actorOf(request));
      return sendNoContent(reply);
    },
  );

  // The only route that takes multipart: the parser lives in this encapsulated scope, nowhere else.
  await app.register(photoUploadRoute, { customers });
}

/** The multipart parser with the photo upload's limits, in the caller's encapsulated scope (also the technician app's upload). */
export async function registerPhotoMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: {
      // A bigger file is cut off here and answered 413 (it is never read whole into memory).
      fileSize: photoUploadLimits.maxBytes,
      files: photoUploadLimits.maxFilesPerRequest,
      fields: 10,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: photoUploadLimits.maxFilesPerRequest + 10,
      headerPairs: 100,
    },
  });
}

async function photoUploadRoute(app: FastifyInstance, { customers }: Options): Promise<void> {
  await registerPhotoMultipart(app);

  // A multipart body (field `photos`), read part by part: documented, not validated as JSON.
  const uploadSchema = {
    consumes: ['multipart/form-data'],
    params: idParamsSchema,
    response: { 201: customerPhotosResponseSchema },
  };
  app.post<CustomerParams>('/api/admin/customers/:id/photos', { schema: uploadSchema }, async (request, reply) => {
    if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', customerPhotoMessages.notMultipart);
    try {
      const photos = await customers.addPhotos(request.params.id, uploadedFiles(request), actorOf(request));
      return reply.status(201).send({ photos });
    } catch (error) {
      discardRestOfUpload(request.raw);
      throw error;
    }
  });
}

/** The most a legitimate upload request carries: every file at the limit, plus the multipart framing. */
const largestUploadBytes = photoUploadLimits.maxFilesPerRequest * photoUploadLimits.maxBytes + 1024 * 1024;

/**
 * A refused upload stops reading the request midway, and Node does not drain a body that was
 * being read: the client would stall mid-send and the connection stay stuck until the keep-alive
 * timeout (holding up a graceful shutdown too). So the rest is read and thrown away; the client
 * gets the answer and the connection stays usable. Closing the socket instead risks a TCP reset
 * that makes browsers lose the answer. A client sending more than any upload can hold is cut off.
 */
export function discardRestOfUpload(raw: IncomingMessage): void {
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > largestUploadBytes) raw.destroy();
  });
  raw.resume();
}

/** The request's files, one at a time, with the parser's limit errors turned into messages users can act on. */
export async function* uploadedFiles(request: FastifyRequest): AsyncGenerator<UploadedFile> {
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== photoUploadField) throw new AppError('VALIDATION_FAILED', customerPhotoMessages.wrongField);
      yield { fileName: part.filename, read: () => part.toBuffer().catch((error: unknown) => Promise.reject(uploadError(error, part))) };
    }
  } catch (error) {
    throw uploadError(error, undefined);
  }
}

function uploadError(error: unknown, part: MultipartFile | undefined): unknown {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', customerPhotoMessages.tooLarge(fileNameForMessage(part?.filename)));
    case 'FST_FILES_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', customerPhotoMessages.tooManyFiles);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
    case 'FST_MP_PREMATURE_CLOSE':
      return new AppError('VALIDATION_FAILED', customerPhotoMessages.malformed);
  }
  // busboy's own parse errors (a broken body) are plain Errors: a 400, not a 500.
  if (error instanceof Error && /multipart|boundary|unexpected end/i.test(error.message)) {
    return new AppError('VALIDATION_FAILED', customerPhotoMessages.malformed);
  }
  return error;
}
