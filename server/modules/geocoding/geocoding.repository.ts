import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { GeocoderName, GeocodingAddress } from '#shared/geocoding.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { customers, geocodeCache, geocodingBatches, geocodingBatchItems } from '#server/db/schema/index.ts';

export type BatchRow = typeof geocodingBatches.$inferSelect;
export type BatchItemRow = typeof geocodingBatchItems.$inferSelect;
export type CacheRow = typeof geocodeCache.$inferSelect;

/** What a lookup found (or why not), as it is cached and written to the customer. */
export type LookupResult =
  | { status: 'success'; latitude: number; longitude: number; formattedAddress: string; accuracy: string; warnings: string[] }
  | { status: 'failed'; error: string };

/** The customer fields a lookup starts from. */
export type CustomerForLookup = GeocodingAddress & { id: string; name: string; latitude: number | null };

/** How an item ended: its result was written to the customer, or the customer had changed and was left alone. */
export type ItemOutcome = { written: true; result: LookupResult } | { written: false; reason: string };

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23505';
}

/** Thrown inside a transaction to roll it back when the batch stopped running under us. */
class BatchNotRunning extends Error {}

/** The geocoder only considers customers with a non-empty address (spec 001 section 5). */
const hasAddress = sql`btrim(${customers.address}) <> ''`;

/** The address as the customer has it now equals the one looked up (zip may be null on both sides). */
function sameAddress(address: GeocodingAddress) {
  return and(
    eq(customers.address, address.address),
    eq(customers.city, address.city),
    eq(customers.state, address.state),
    sql`${customers.zip} is not distinct from ${address.zip}`,
  );
}

/** Why an item's result was not written: the skipped item's message (shown in the batch's result list). */
export const skippedReasons = {
  deleted: 'The customer was deleted during the lookup',
  located: 'Already located (a pin was placed or another batch found it): left as it is',
  addressChanged: 'The address was edited during the lookup: left pending for the next batch',
} as const;

async function whyNotWritten(tx: Database, customerId: string): Promise<string> {
  const [row] = await tx.select({ latitude: customers.latitude }).from(customers).where(eq(customers.id, customerId));
  if (!row) return skippedReasons.deleted;
  return row.latitude !== null ? skippedReasons.located : skippedReasons.addressChanged;
}

export function createGeocodingRepository(db: Database) {
  return {
    /**
     * The setup page's and the map header's figures, in one pass over the customers with an
     * address: success = located (has coordinates), failed = not located and marked failed,
     * pending = the rest (not located, not failed). They add up to total.
     */
    async stats(): Promise<{ total: number; success: number; failed: number; pending: number }> {
      const [row] = await db
        .select({
          total: sql<number>`count(*)::int`,
          success: sql<number>`(count(*) filter (where ${customers.latitude} is not null))::int`,
          failed: sql<number>`(count(*) filter (where ${customers.latitude} is null and ${customers.geocodingStatus} = 'failed'))::int`,
          pending: sql<number>`(count(*) filter (where ${customers.latitude} is null and ${customers.geocodingStatus} <> 'failed'))::int`,
        })
        .from(customers)
        .where(hasAddress);
      return row ?? { total: 0, success: 0, failed: 0, pending: 0 };
    },

    /**
     * Starts a batch: in one transaction, the batch row (the unique index on running batches makes
     * a second one fail here, on any instance), then its customers: pending ones oldest first
     * (customers_geocoding_pending_idx), then, with retryFailed, failed ones. Undefined when another
     * batch is running. A batch with nothing to do is stored completed with `emptyMessage`.
     */
    async startBatch(options: { provider: GeocoderName; retryFailed: boolean; count: number; emptyMessage: string }): Promise<BatchRow | undefined> {
      try {
        return await withTransaction(db, async (tx) => {
          const [batch] = await tx
            .insert(geocodingBatches)
            .values({ provider: options.provider, retryFailed: options.retryFailed, total: 0 })
            .returning();
          const statuses = options.retryFailed ? sql`in ('pending', 'failed')` : sql`= 'pending'`;
          const selected = await tx
            .select({ id: customers.id, name: customers.name, address: customers.address, city: customers.city, state: customers.state, zip: customers.zip })
            .from(customers)
            .where(and(isNull(customers.latitude), hasAddress, sql`${customers.geocodingStatus} ${statuses}`))
            .orderBy(...(options.retryFailed ? [sql`${customers.geocodingStatus} = 'failed'`] : []), asc(customers.createdAt), asc(customers.id))
            .limit(options.count);
          if (selected.length > 0) {
            await tx.insert(geocodingBatchItems).values(
              selected.map(({ id, ...snapshot }, position) => ({ batchId: batch!.id, position, customerId: id, ...snapshot })),
            );
          }
          const [updated] = await tx
            .update(geocodingBatches)
            .set(
              selected.length > 0
                ? { total: selected.length }
                : { status: 'completed', message: options.emptyMessage, finishedAt: sql`now()` },
            )
            .where(eq(geocodingBatches.id, batch!.id))
            .returning();
          return updated!;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    /** Interrupted -> running again. 'busy' when another batch is running, undefined when it is not interrupted. */
    async resumeBatch(id: string, provider: GeocoderName): Promise<BatchRow | 'busy' | undefined> {
      try {
        const [row] = await db
          .update(geocodingBatches)
          .set({ status: 'running', provider, heartbeatAt: sql`now()` })
          .where(and(eq(geocodingBatches.id, id), eq(geocodingBatches.status, 'interrupted')))
          .returning();
        return row;
      } catch (error) {
        if (isUniqueViolation(error)) return 'busy';
        throw error;
      }
    },

    /**
     * Running batches whose instance is gone become interrupted: all of them (`olderThanMs`
     * undefined: the embedded database has one process, so at its start none is alive), or those
     * whose heartbeat is older than that (PostgreSQL, where another instance may be running one).
     */
    async interruptAbandoned(olderThanMs: number | undefined): Promise<string[]> {
      const abandoned = and(
        eq(geocodingBatches.status, 'running'),
        olderThanMs === undefined ? undefined : sql`${geocodingBatches.heartbeatAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      );
      // Read first: an UPDATE that changes nothing would still publish a live change (statement trigger).
      const found = await db.select({ id: geocodingBatches.id }).from(geocodingBatches).where(abandoned);
      if (found.length === 0) return [];
      const rows = await db.update(geocodingBatches).set({ status: 'interrupted' }).where(abandoned).returning({ id: geocodingBatches.id });
      return rows.map((row) => row.id);
    },

    async interrupt(id: string): Promise<void> {
      await db
        .update(geocodingBatches)
        .set({ status: 'interrupted' })
        .where(and(eq(geocodingBatches.id, id), eq(geocodingBatches.status, 'running')));
    },

    async heartbeat(id: string): Promise<void> {
      await db
        .update(geocodingBatches)
        .set({ heartbeatAt: sql`now()` })
        .where(and(eq(geocodingBatches.id, id), eq(geocodingBatches.status, 'running')));
    },

    /** Running -> completed with its summary; false when it was no longer running. */
    async finishBatch(id: string, message: (processed: number, succeeded: number, failed: number) => string): Promise<boolean> {
      return withTransaction(db, async (tx) => {
        const [batch] = await tx.select().from(geocodingBatches).where(eq(geocodingBatches.id, id)).for('update');
        if (batch?.status !== 'running') return false;
        await tx
          .update(geocodingBatches)
          .set({ status: 'completed', message: message(batch.processed, batch.succeeded, batch.failed), finishedAt: sql`now()` })
          .where(eq(geocodingBatches.id, id));
        return true;
      });
    },

    async findBatch(id: string): Promise<BatchRow | undefined> {
      return (await db.select().from(geocodingBatches).where(eq(geocodingBatches.id, id)))[0];
    },

    async latestBatch(): Promise<BatchRow | undefined> {
      return (await db.select().from(geocodingBatches).orderBy(desc(geocodingBatches.startedAt), desc(geocodingBatches.id)).limit(1))[0];
    },

    /** The items done so far, in batch order. */
    async doneItems(batchId: string): Promise<BatchItemRow[]> {
      return db
        .select()
        .from(geocodingBatchItems)
        .where(and(eq(geocodingBatchItems.batchId, batchId), sql`${geocodingBatchItems.doneAt} is not null`))
        .orderBy(asc(geocodingBatchItems.position));
    },

    /** The items still to do, in batch order. */
    async remainingItems(batchId: string): Promise<BatchItemRow[]> {
      return db
        .select()
        .from(geocodingBatchItems)
        .where(and(eq(geocodingBatchItems.batchId, batchId), isNull(geocodingBatchItems.doneAt)))
        .orderBy(asc(geocodingBatchItems.position));
    },

    async customerForLookup(id: string): Promise<CustomerForLookup | undefined> {
      const rows = await db
        .select({
          id: customers.id,
          name: customers.name,
          address: customers.address,
          city: customers.city,
          state: customers.state,
          zip: customers.zip,
          latitude: customers.latitude,
        })
        .from(customers)
        .where(eq(customers.id, id));
      return rows[0];
    },

    async cached(provider: GeocoderName, addressKey: string): Promise<CacheRow | undefined> {
      return (await db.select().from(geocodeCache).where(and(eq(geocodeCache.provider, provider), eq(geocodeCache.addressKey, addressKey))))[0];
    },

    async cache(provider: GeocoderName, addressKey: string, result: LookupResult): Promise<void> {
      const values =
        result.status === 'success'
          ? { status: 'success', latitude: result.latitude, longitude: result.longitude, formattedAddress: result.formattedAddress, accuracy: result.accuracy, warnings: result.warnings, error: null }
          : { status: 'failed', latitude: null, longitude: null, formattedAddress: null, accuracy: null, warnings: [], error: result.error };
      await db
        .insert(geocodeCache)
        .values({ provider, addressKey, ...values })
        .onConflictDoUpdate({ target: [geocodeCache.provider, geocodeCache.addressKey], set: { ...values, updatedAt: sql`now()` } });
    },

    /**
     * Saves one item in one transaction: the customer (only if its address is still the one looked
     * up and it has not been located meanwhile; otherwise it is left as it is, pending again after
     * an edit), the item's result and the batch's counters. Undefined (nothing saved) when the
     * batch is no longer running.
     */
    async completeItem(
      item: { batchId: string; position: number; customerId: string },
      address: GeocodingAddress,
      result: LookupResult,
      fromCache: boolean,
    ): Promise<ItemOutcome | undefined> {
      try {
        return await withTransaction(db, async (tx) => {
          const customerValues =
            result.status === 'success'
              ? {
                  latitude: result.latitude,
                  longitude: result.longitude,
                  geocodingStatus: 'success',
                  geocodedAt: sql`now()`,
                  formattedAddress: result.formattedAddress,
                  geocodingAccuracy: result.accuracy,
                  geocodingError: null,
                }
              : { geocodingStatus: 'failed', geocodedAt: sql`now()`, geocodingError: result.error };
          const written = await tx
            .update(customers)
            .set(customerValues)
            .where(and(eq(customers.id, item.customerId), sameAddress(address), isNull(customers.latitude)))
            .returning({ id: customers.id });
          const outcome: ItemOutcome =
            written.length > 0 ? { written: true, result } : { written: false, reason: await whyNotWritten(tx, item.customerId) };
          const success = outcome.written && result.status === 'success' && result;
          await tx
            .update(geocodingBatchItems)
            .set({
              ...address,
              status: outcome.written ? result.status : 'skipped',
              latitude: success ? success.latitude : null,
              longitude: success ? success.longitude : null,
              formattedAddress: success ? success.formattedAddress : null,
              accuracy: success ? success.accuracy : null,
              warnings: success ? success.warnings : [],
              error: outcome.written ? (result.status === 'failed' ? result.error : null) : outcome.reason,
              fromCache,
              doneAt: sql`now()`,
            })
            .where(and(eq(geocodingBatchItems.batchId, item.batchId), eq(geocodingBatchItems.position, item.position)));
          const succeeded = success ? 1 : 0;
          const counted = await tx
            .update(geocodingBatches)
            .set({
              processed: sql`${geocodingBatches.processed} + 1`,
              succeeded: sql`${geocodingBatches.succeeded} + ${succeeded}`,
              failed: sql`${geocodingBatches.failed} + ${1 - succeeded}`,
              heartbeatAt: sql`now()`,
            })
            .where(and(eq(geocodingBatches.id, item.batchId), eq(geocodingBatches.status, 'running')))
            .returning({ id: geocodingBatches.id });
          if (counted.length === 0) throw new BatchNotRunning();
          return outcome;
        });
      } catch (error) {
        if (error instanceof BatchNotRunning) return undefined;
        throw error;
      }
    },

    /** An item whose customer cannot be looked up (deleted, already located): saved without a lookup. */
    async skipItem(item: { batchId: string; position: number }, reason: string): Promise<boolean> {
      return withTransaction(db, async (tx) => {
        const counted = await tx
          .update(geocodingBatches)
          .set({ processed: sql`${geocodingBatches.processed} + 1`, failed: sql`${geocodingBatches.failed} + 1`, heartbeatAt: sql`now()` })
          .where(and(eq(geocodingBatches.id, item.batchId), eq(geocodingBatches.status, 'running')))
          .returning({ id: geocodingBatches.id });
        if (counted.length === 0) return false;
        await tx
          .update(geocodingBatchItems)
          .set({ status: 'skipped', error: reason, doneAt: sql`now()` })
          .where(and(eq(geocodingBatchItems.batchId, item.batchId), eq(geocodingBatchItems.position, item.position)));
        return true;
      });
    },

    /** Staff placed the pin: the customer is located where they put it (the caller formats the address). */
    async placePin(
      id: string,
      point: { latitude: number; longitude: number },
      formatted: (address: GeocodingAddress) => string,
      /** Runs in the same transaction once the pin is placed (the audit entry). */
      onPlaced?: (tx: Database, before: typeof customers.$inferSelect, after: typeof customers.$inferSelect) => Promise<void>,
    ) {
      return withTransaction(db, async (tx) => {
        const [customer] = await tx
          .select()
          .from(customers)
          .where(eq(customers.id, id))
          .for('update');
        if (!customer) return undefined;
        const [row] = await tx
          .update(customers)
          .set({
            latitude: point.latitude,
            longitude: point.longitude,
            geocodingStatus: 'success',
            geocodedAt: sql`now()`,
            formattedAddress: formatted(customer),
            geocodingAccuracy: 'ROOFTOP',
            geocodingError: null,
          })
          .where(eq(customers.id, id))
          .returning();
        if (row) await onPlaced?.(tx, customer, row);
        return row;
      });
    },
  };
}

export type GeocodingRepository = ReturnType<typeof createGeocodingRepository>;
