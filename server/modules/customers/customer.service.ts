import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import {
  customerDeleteBlockedMessage,
  customerLookupLimit,
  customerMessages,
  customerPhotoMessages,
  customerPhotoUrl,
  customerProfileWorkOrderLimit,
  photoUploadLimits,
  type Customer,
  type CustomerListItem,
  type CustomerListResponse,
  type CustomerPhoto,
  type CustomerProfileResponse,
  type CustomerValues,
} from '#shared/customer.ts';
import type { ObjectStorage } from '#server/adapters/storage/index.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { AppError } from '#server/errors.ts';
import { diffFields, hasChanges, recordAudit, recordAudits, type AuditActor } from '#server/modules/audit/index.ts';
import { createCustomerRepository, type CustomerListRow, type CustomerPhotoRow, type CustomerRow, type NewCustomerPhoto } from './customer.repository.ts';
import { photoContentType, photoObjectKeys, processPhoto, type ProcessedPhoto } from './photo-pipeline.ts';
import { isUuid } from '#server/lib/uuid.ts';

/** What a technician's upload ties its photos to: the visit, and the app's upload key. */
/** A photo taken on a visit (the technician app): the work order it is linked to, and its number for the work order's history. */
export type PhotoLink = { workOrderId?: string; workOrderNumber?: string; idempotencyKey?: string };

/** One file of an upload, read when the service asks for it (the multipart stream is read in order). */
export type UploadedFile = { fileName: string | undefined; read: () => Promise<Buffer> };

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */

const customerNotFound = () => new AppError('NOT_FOUND', customerMessages.notFoundTitle);
const photoNotFound = () => new AppError('NOT_FOUND', customerPhotoMessages.photoNotFound);

/** The id in the form the database prints it (lower case): photo object keys are made from it. */
function customerId(id: string): string {
  if (!isUuid(id)) throw customerNotFound();
  return id.toLowerCase();
}

function listItem(row: CustomerListRow): CustomerListItem {
  return { ...row, type: row.type as CustomerListItem['type'] };
}

/** A customer row as the API sends it (also used by the work-order detail). */
export function toCustomer(row: CustomerRow): Customer {
  return {
    ...listItem(row),
    notes: row.notes,
    hasIndoorUnit: row.hasIndoorUnit,
    hasOutdoorUnit: row.hasOutdoorUnit,
    unitBrand: row.unitBrand,
    unitModel: row.unitModel,
    unitSerial: row.unitSerial,
    installDate: row.installDate,
    refrigerantType: row.refrigerantType,
    tonnage: row.tonnage,
    latitude: row.latitude,
    longitude: row.longitude,
    geocodingStatus: row.geocodingStatus as Customer['geocodingStatus'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toPhoto(row: CustomerPhotoRow): CustomerPhoto {
  return {
    id: row.id,
    url: customerPhotoUrl(row.customerId, row.id, 'display'),
    thumbnailUrl: customerPhotoUrl(row.customerId, row.id, 'thumbnail'),
    width: row.width,
    height: row.height,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The thumbnail sits beside the display version under the same stem (photoObjectKeys). */
export function thumbnailKeyOf(displayKey: string): string {
  return displayKey.replace(/-display(\.[a-z0-9]+)$/, '-thumb$1');
}

/**
 * What the activity log shows of a customer: the form's fields. The geocoder's results follow
 * from the address (and are cleared when it changes), so they are not listed as changes.
 */
const customerAuditFields = [
  'name', 'phone', 'email', 'address', 'city', 'state', 'zip', 'type', 'notes', 'hasIndoorUnit', 'hasOutdoorUnit',
  'unitBrand', 'unitModel', 'unitSerial', 'installDate', 'refrigerantType', 'tonnage',
] as const satisfies readonly (keyof CustomerRow)[];

/** The customer's entry for a created, updated or deleted row. */
export async function recordCustomerChange(
  tx: Database,
  actor: AuditActor,
  action: 'created' | 'updated' | 'deleted',
  before: CustomerRow | undefined,
  after: CustomerRow | undefined,
): Promise<void> {
  const row = (after ?? before)!;
  const changes = diffFields(before, after, { only: customerAuditFields });
  if (action === 'updated' && !hasChanges(changes)) return;
  await recordAudit(tx, { actor, entityType: 'customer', entityId: row.id, entityLabel: row.name, action, changes });
}

/** The file name a photo was stored under (its object key's last part, without the timestamp). */
function photoName(objectKey: string): string {
  return (objectKey.split('/').pop() ?? objectKey).replace(/^\d+_/, '').replace(/-[0-9a-f]{8}-display\.[a-z0-9]+$/, '');
}

/** 23503 foreign_key_violation, or 23001 restrict_violation (an ON DELETE RESTRICT key, as the billing tables have). */
function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const code = (cause as { code?: string })?.code;
  return code === '23503' || code === '23001';
}

/** The table whose foreign key refused a delete ("invoices_customer_id_customers_id_fk" -> "invoices"). */
function refusingTable(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { table, constraint } = cause as { table?: string; constraint?: string };
  return table ?? constraint?.split('_customer_id_')[0];
}

/** Billing documents are an accountant's records (decision 024-c): a customer who has any is never deleted. */
export const customerHasBillingDocumentsMessage = 'This customer has invoices or quotes, which are kept for the accounts. A customer with billing documents cannot be deleted.';

export function createCustomerService(options: { db: Database; storage: ObjectStorage; log: FastifyBaseLogger }) {
  const { db, storage, log } = options;
  const repository = createCustomerRepository(db);
  /**
   * A search's pages, kept per snapshot by words, page and size (decision 026-b, addendum 3): as the
   * work orders' search, a repeat while nothing commits costs one snapshot read; any commit empties them.
   */
  const searchAnswers = createSnapshotCache<CustomerListResponse>(db, { maxEntries: 64 });
  const readDirectory = async (query: { search: string; page: number; pageSize: number }): Promise<CustomerListResponse> => {
    const { rows, total, totalCapped } = await repository.directory(query.search, query.page, query.pageSize);
    return { customers: rows.map(listItem), total, totalCapped, page: query.page, pageSize: query.pageSize };
  };

  async function removeObjects(keys: string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((key) => storage.delete(key)));
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected') log.error({ err: result.reason, key: keys[index] }, 'could not remove a stored photo file');
    }
  }

  return {
    async list(query: { search: string; page: number; pageSize: number }): Promise<CustomerListResponse> {
      if (!query.search) return readDirectory(query);
      return searchAnswers.get(JSON.stringify([query.search, query.page, query.pageSize]), () => readDirectory(query));
    },

    async lookup(text: string): Promise<{ customers: CustomerListItem[] }> {
      return { customers: (await repository.lookup(text, customerLookupLimit)).map(listItem) };
    },

    async create(values: CustomerValues, actor: AuditActor): Promise<Customer> {
      return withTransaction(db, async (tx) => {
        const row = await createCustomerRepository(tx).insert(values);
        await recordCustomerChange(tx, actor, 'created', undefined, row);
        return toCustomer(row);
      });
    },

    async profile(id: string): Promise<CustomerProfileResponse> {
      const { customer, equipment, photos, workOrders } = await repository.profile(customerId(id), customerProfileWorkOrderLimit);
      if (!customer) throw customerNotFound();
      return {
        customer: toCustomer(customer),
        equipment,
        photos: photos.map(toPhoto),
        workOrders: workOrders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
      };
    },

    async update(id: string, values: CustomerValues, actor: AuditActor): Promise<Customer> {
      const key = customerId(id);
      return withTransaction(db, async (tx) => {
        const customers = createCustomerRepository(tx);
        const before = await customers.lockById(key);
        if (!before) throw customerNotFound();
        const row = await customers.update(key, values);
        if (!row) throw customerNotFound();
        await recordCustomerChange(tx, actor, 'updated', before, row);
        return toCustomer(row);
      });
    },

    /**
     * Refused while the customer has work orders (job history is never lost silently). The photo
     * files go after the rows are committed: a failure there leaves files nobody can reach
     * (logged), never a customer whose photos are gone.
     */
    async remove(id: string, actor: AuditActor): Promise<void> {
      const customer = customerId(id);
      let result;
      try {
        result = await repository.deleteUnlessWorkOrders(customer, (tx, deleted) => recordCustomerChange(tx, actor, 'deleted', deleted, undefined));
      } catch (error) {
        // A work order created at the same moment: the foreign key refuses the delete.
        if (isForeignKeyViolation(error)) {
          const table = refusingTable(error);
          if (table === 'invoices' || table === 'quotes' || table === 'payments') throw new AppError('CONFLICT', customerHasBillingDocumentsMessage);
          throw new AppError('CONFLICT', 'This customer has work orders. Delete or reassign them first.');
        }
        throw error;
      }
      if (result.outcome === 'not-found') throw customerNotFound();
      if (result.outcome === 'has-work-orders') throw new AppError('CONFLICT', customerDeleteBlockedMessage(result.workOrderCount));
      await storage.deletePrefix(`customers/${customer}/`).catch((error: unknown) => {
        log.error({ err: error, customerId: customer }, 'could not remove the photo files of a deleted customer');
      });
    },

    /**
     * All or nothing per request: every file is read, checked and re-encoded first; only when all
     * passed are the files stored and the rows inserted. A refused file stores nothing.
     */
    async addPhotos(id: string, files: AsyncIterable<UploadedFile>, actor: AuditActor, link: PhotoLink = {}): Promise<CustomerPhoto[]> {
      return (await this.addPhotoRows(id, files, actor, link)).map(toPhoto);
    },

    /**
     * As addPhotos, answering the stored rows; `link` ties them to a visit and an upload key (the
     * technician app, issue 19: the key's unique index makes a concurrent replay fail, not duplicate).
     */
    async addPhotoRows(id: string, files: AsyncIterable<UploadedFile>, actor: AuditActor, link: PhotoLink = {}): Promise<CustomerPhotoRow[]> {
      const customer = customerId(id);
      const owner = await repository.findById(customer);
      if (!owner) throw customerNotFound();

      const processed: ProcessedPhoto[] = [];
      for await (const file of files) {
        if (processed.length >= photoUploadLimits.maxFilesPerRequest) throw new AppError('PAYLOAD_TOO_LARGE', customerPhotoMessages.tooManyFiles);
        // One file in memory at a time: the re-encoded versions are kept, the upload is let go.
        processed.push(await processPhoto(await file.read(), file.fileName));
      }
      if (processed.length === 0) throw new AppError('VALIDATION_FAILED', customerPhotoMessages.noFiles);

      const timestamp = Date.now();
      const written: string[] = [];
      try {
        const rows: NewCustomerPhoto[] = [];
        for (const photo of processed) {
          const keys = photoObjectKeys(customer, timestamp, photo.safeName);
          await storage.put(keys.display, photo.display.bytes, photoContentType);
          written.push(keys.display);
          await storage.put(keys.thumbnail, photo.thumbnail.bytes, photoContentType);
          written.push(keys.thumbnail);
          rows.push({
            customerId: customer,
            objectKey: keys.display,
            contentType: photoContentType,
            width: photo.display.width,
            height: photo.display.height,
            sizeBytes: photo.display.bytes.length,
            ...(link.workOrderId ? { workOrderId: link.workOrderId } : {}),
            ...(link.idempotencyKey ? { idempotencyKey: link.idempotencyKey, idempotencyIndex: rows.length } : {}),
          });
        }
        const inserted = await withTransaction(db, async (tx) => {
          const photoRows = await createCustomerRepository(tx).insertPhotos(rows);
          const photos: [null, string[]] = [null, photoRows.map((row) => photoName(row.objectKey))];
          await recordAudits(tx, [
            { actor, entityType: 'customer', entityId: customer, entityLabel: owner.name, action: 'photos_added', changes: { photos } },
            // Taken on a visit: also a step of that work order's history (its timeline).
            ...(link.workOrderId
              ? [{ actor, entityType: 'work_order' as const, entityId: link.workOrderId, entityLabel: link.workOrderNumber ?? null, action: 'photos_added', changes: { photos } }]
              : []),
          ]);
          return photoRows;
        });
        return inserted;
      } catch (error) {
        await removeObjects(written);
        // The customer was deleted while the photos were being processed.
        if (isForeignKeyViolation(error)) throw customerNotFound();
        throw error;
      }
    },

    /** One version of a photo as a stream (from the disk or the bucket), with its length and content type. */
    async photoFile(id: string, photoId: string, variant: 'display' | 'thumbnail'): Promise<{ stream: Readable; size: number; contentType: string }> {
      const customer = customerId(id);
      if (!isUuid(photoId)) throw photoNotFound();
      const photo = await repository.findPhoto(customer, photoId);
      if (!photo) throw photoNotFound();
      const stored = await storage.open(variant === 'display' ? photo.objectKey : thumbnailKeyOf(photo.objectKey));
      if (!stored) throw photoNotFound();
      return { stream: stored.stream, size: stored.size, contentType: photo.contentType };
    },

    async removePhoto(id: string, photoId: string, actor: AuditActor): Promise<void> {
      const customer = customerId(id);
      if (!isUuid(photoId)) throw photoNotFound();
      const photo = await withTransaction(db, async (tx) => {
        const customers = createCustomerRepository(tx);
        const deleted = await customers.deletePhoto(customer, photoId);
        if (!deleted) return undefined;
        const owner = await customers.findById(customer);
        await recordAudit(tx, {
          actor,
          entityType: 'customer',
          entityId: customer,
          entityLabel: owner?.name ?? null,
          action: 'photo_removed',
          changes: { photo: [photoName(deleted.objectKey), null] },
        });
        return deleted;
      });
      if (!photo) throw photoNotFound();
      await removeObjects([photo.objectKey, thumbnailKeyOf(photo.objectKey)]);
    },
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
