import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { customerMessages, type Customer } from '#shared/customer.ts';
import {
  addressLine,
  chooseBestResult,
  geocodingLimits,
  geocodingMessages,
  geocodingPercentage,
  manualLocationSchema,
  normalizeAddress,
  type GeocodingAccuracy,
  type GeocodingAddress,
  type GeocodingBatch,
  type GeocodingBatchRequest,
  type GeocodingBatchResult,
  type GeocodingStats,
  type GeocoderName,
} from '#shared/geocoding.ts';
import type { Geocoder } from '#server/adapters/geocoding/geocoder.ts';
import { diffFields, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import type { Database, DatabaseKind } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { AppError } from '#server/errors.ts';
import { parseOrThrow } from '#server/validation.ts';
import { toCustomer } from '#server/modules/customers/index.ts';
import {
  createGeocodingRepository,
  skippedReasons,
  type BatchItemRow,
  type BatchRow,
  type CacheRow,
  type LookupResult,
} from './geocoding.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

export type GeocodingServiceOptions = {
  db: Database;
  /** The embedded database has one process: a running batch found at start-up was left by a crash. */
  kind: DatabaseKind;
  geocoder: Geocoder;
  /** Pause between two provider calls (GEOCODER_PAUSE_MS); the provider's own minimum wins when larger. */
  pauseMs: number;
  /** First wait after a rate-limit answer without Retry-After (GEOCODER_BACKOFF_MS), doubled per attempt. */
  rateLimitBackoffMs: number;
  log: FastifyBaseLogger;
  /** Provider calls per address when rate-limited (the first and the retries). */
  rateLimitAttempts?: number;
  /** The running instance touches its batch this often while a lookup takes long. */
  heartbeatMs?: number;
  /** PostgreSQL: a running batch not touched for this long was left by a crashed instance. */
  abandonedAfterMs?: number;
};

/** No wait after a rate-limit answer is longer than this, whatever the provider asked. */
const maxBackoffMs = 60_000;

const batchNotFound = () => new AppError('NOT_FOUND', 'This geocoding batch does not exist');

function lookupFromCache(row: CacheRow): LookupResult {
  if (row.status === 'success' && row.latitude !== null && row.longitude !== null) {
    return {
      status: 'success',
      latitude: row.latitude,
      longitude: row.longitude,
      formattedAddress: row.formattedAddress ?? '',
      accuracy: row.accuracy ?? 'APPROXIMATE',
      warnings: row.warnings,
    };
  }
  return { status: 'failed', error: row.error ?? geocodingMessages.failed('UNKNOWN_ERROR') };
}

function toResult(item: BatchItemRow): GeocodingBatchResult {
  return {
    customerId: item.customerId,
    name: item.name,
    address: addressLine(item),
    // A skipped item (the customer changed during the lookup) is reported as failed, with its reason.
    status: item.status === 'success' ? 'success' : 'failed',
    latitude: item.latitude,
    longitude: item.longitude,
    formattedAddress: item.formattedAddress,
    accuracy: item.accuracy as GeocodingAccuracy | null,
    error: item.error,
    warnings: item.warnings,
  };
}

function toBatch(row: BatchRow, items: BatchItemRow[]): GeocodingBatch {
  return {
    id: row.id,
    status: row.status as GeocodingBatch['status'],
    provider: row.provider as GeocoderName,
    total: row.total,
    processed: row.processed,
    succeeded: row.succeeded,
    failed: row.failed,
    results: items.map(toResult),
    message: row.message,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** Waits out `ms` unless the signal fires first (then returns early; callers check the signal). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return;
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * Geocoding batches run by the server (issue 9). A batch fixes its customers when it starts, then
 * runs in this process after the request that started it has been answered; every address's
 * result and the batch's counters are saved as it completes. Decision record 016-b.
 */
export function createGeocodingService(options: GeocodingServiceOptions) {
  const { geocoder, log } = options;
  const repository = createGeocodingRepository(options.db);
  // The map header and the setup page read the stats on every customer change: one pass over the
  // customers per database snapshot, not per request (decision 013's cache).
  const statsCache = createSnapshotCache<GeocodingStats>(options.db, { maxEntries: 1 });
  const callIntervalMs = Math.max(options.pauseMs, geocoder.minIntervalMs);
  const rateLimitAttempts = options.rateLimitAttempts ?? 4;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const abandonedAfterMs = options.abandonedAfterMs ?? 60_000;

  /** The batch this process is running (at most one: at most one runs anywhere). */
  let active: { id: string; controller: AbortController; done: Promise<void> } | undefined;
  let isClosed = false;

  async function batchWithResults(row: BatchRow): Promise<GeocodingBatch> {
    const batch = toBatch(row, await repository.doneItems(row.id));
    // A batch whose instance died (PostgreSQL, another instance) reads as interrupted at once, so
    // staff can resume it; the row itself is changed by the next start or resume (reads never write).
    const isAbandoned = row.status === 'running' && Date.now() - row.heartbeatAt.getTime() > abandonedAfterMs;
    return isAbandoned ? { ...batch, status: 'interrupted' } : batch;
  }

  /** Keeps provider calls `callIntervalMs` apart (cache hits do not count). */
  function createPacer() {
    let lastCallAt: number | undefined;
    return {
      async beforeCall(signal: AbortSignal) {
        if (lastCallAt !== undefined) await pause(lastCallAt + callIntervalMs - performance.now(), signal);
      },
      called() {
        lastCallAt = performance.now();
      },
    };
  }
  type Pacer = ReturnType<typeof createPacer>;

  /**
   * Asks the provider, backing off on rate-limit answers. `definitive` results (found, nothing
   * found, every result rejected) are cached; passing failures are not. Undefined when aborted.
   */
  async function lookUp(address: GeocodingAddress, signal: AbortSignal, pacer: Pacer): Promise<{ result: LookupResult; definitive: boolean } | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      await pacer.beforeCall(signal);
      if (signal.aborted) return undefined;
      let outcome;
      try {
        outcome = await geocoder.geocode(address, signal);
      } catch (error) {
        if (signal.aborted) return undefined;
        log.error({ err: error, provider: geocoder.name }, 'the geocoder threw');
        outcome = { kind: 'error' as const, status: 'UNKNOWN_ERROR', message: null };
      } finally {
        pacer.called();
      }
      // A lookup cut off by shutdown is not a result: the resumed batch asks again.
      if (signal.aborted) return undefined;
      switch (outcome.kind) {
        case 'results': {
          const choice = chooseBestResult(outcome.candidates, address);
          if (!choice.ok) return { result: { status: 'failed', error: choice.message }, definitive: true };
          const { candidate } = choice;
          return {
            result: {
              status: 'success',
              latitude: candidate.latitude,
              longitude: candidate.longitude,
              formattedAddress: candidate.formattedAddress,
              accuracy: candidate.accuracy,
              warnings: choice.warnings,
            },
            definitive: true,
          };
        }
        case 'none':
          return { result: { status: 'failed', error: geocodingMessages.failed(outcome.status) }, definitive: true };
        case 'error':
          return { result: { status: 'failed', error: geocodingMessages.failed(outcome.status, outcome.message) }, definitive: false };
        case 'rate-limited': {
          if (attempt + 1 >= rateLimitAttempts) {
            return { result: { status: 'failed', error: geocodingMessages.failed(outcome.status, outcome.message) }, definitive: false };
          }
          const waitMs = Math.min(maxBackoffMs, (outcome.retryAfterMs ?? options.rateLimitBackoffMs) * 2 ** attempt);
          log.warn({ provider: geocoder.name, attempt: attempt + 1, waitMs }, 'geocoder rate limit: backing off');
          await pause(waitMs, signal);
          break;
        }
      }
    }
  }

  /** One address: 'saved', 'aborted' (nothing saved) or 'stopped' (the batch is no longer running). */
  async function processItem(item: BatchItemRow, retryFailed: boolean, signal: AbortSignal, pacer: Pacer): Promise<'saved' | 'aborted' | 'stopped'> {
    // The address is read again now: an edit since the batch started is what gets looked up.
    const customer = await repository.customerForLookup(item.customerId);
    if (!customer || customer.latitude !== null) {
      const saved = await repository.skipItem(item, customer ? skippedReasons.located : skippedReasons.deleted);
      return saved ? 'saved' : 'stopped';
    }
    const address: GeocodingAddress = { address: customer.address, city: customer.city, state: customer.state, zip: customer.zip };
    const key = normalizeAddress(address);
    const cached = await repository.cached(geocoder.name, key);
    let result: LookupResult;
    let fromCache = false;
    // A cached failure is used too, except by a 'Retry failed' batch, which asks the provider again.
    if (cached && (cached.status === 'success' || !retryFailed)) {
      result = lookupFromCache(cached);
      fromCache = true;
    } else {
      const looked = await lookUp(address, signal, pacer);
      if (!looked) return 'aborted';
      result = looked.result;
      if (looked.definitive) await repository.cache(geocoder.name, key, result);
    }
    const outcome = await repository.completeItem(item, address, result, fromCache);
    return outcome ? 'saved' : 'stopped';
  }

  async function run(batch: BatchRow, signal: AbortSignal): Promise<void> {
    let lastSavedAt = performance.now();
    const heartbeat = setInterval(() => {
      // Saving an item touches the batch already; only a long lookup needs a separate touch.
      if (performance.now() - lastSavedAt < heartbeatMs) return;
      repository.heartbeat(batch.id).catch((error: unknown) => log.warn({ err: error, batchId: batch.id }, 'geocoding batch heartbeat failed'));
    }, heartbeatMs);
    heartbeat.unref();
    try {
      const pacer = createPacer();
      for (const item of await repository.remainingItems(batch.id)) {
        if (signal.aborted) break;
        const step = await processItem(item, batch.retryFailed, signal, pacer);
        if (step === 'stopped') {
          log.warn({ batchId: batch.id }, 'geocoding batch is no longer running here (taken as abandoned); stopping');
          return;
        }
        if (step === 'aborted') break;
        lastSavedAt = performance.now();
      }
      if (signal.aborted) {
        await repository.interrupt(batch.id);
        return;
      }
      await repository.finishBatch(batch.id, geocodingMessages.processed);
    } catch (error) {
      log.error({ err: error, batchId: batch.id }, 'geocoding batch stopped by an error; it can be resumed');
      await repository.interrupt(batch.id).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Runs the batch in this process, after the answer that started it. */
  function launch(batch: BatchRow): void {
    const controller = new AbortController();
    const done = run(batch, controller.signal).finally(() => {
      if (active?.id === batch.id) active = undefined;
    });
    active = { id: batch.id, controller, done };
  }

  function sweepAbandoned(): Promise<string[]> {
    return repository.interruptAbandoned(abandonedAfterMs);
  }

  return {
    /**
     * At start-up: batches left running by a crash become interrupted (resumable). On the embedded
     * database every running batch is (one process); on PostgreSQL only those whose heartbeat
     * stopped, since another instance may be running one right now.
     */
    async recover(): Promise<void> {
      const interrupted = await repository.interruptAbandoned(options.kind === 'pglite' ? undefined : abandonedAfterMs);
      if (interrupted.length > 0) log.warn({ batchIds: interrupted }, 'geocoding batches left running by a stop were marked interrupted');
    },

    async stats(): Promise<GeocodingStats> {
      return statsCache.get('stats', async () => {
        const counts = await repository.stats();
        return { ...counts, percentage: geocodingPercentage(counts.success, counts.total) };
      });
    },

    /** Starts a batch: `started` is false when there was nothing to do (the batch is stored completed). */
    async start(request: GeocodingBatchRequest): Promise<{ batch: GeocodingBatch; started: boolean }> {
      if (isClosed) throw new AppError('CONFLICT', geocodingMessages.batchRunning);
      await sweepAbandoned();
      const row = await repository.startBatch({
        provider: geocoder.name,
        retryFailed: request.retryFailed ?? false,
        count: request.count ?? geocodingLimits.mapBatchSize,
        emptyMessage: geocodingMessages.noneNeeded,
      });
      if (!row) throw new AppError('CONFLICT', geocodingMessages.batchRunning);
      if (row.status === 'running') launch(row);
      return { batch: toBatch(row, []), started: row.status === 'running' };
    },

    async current(): Promise<GeocodingBatch | null> {
      const row = await repository.latestBatch();
      return row ? batchWithResults(row) : null;
    },

    async get(id: string): Promise<GeocodingBatch> {
      if (!isUuid(id)) throw batchNotFound();
      const row = await repository.findBatch(id);
      if (!row) throw batchNotFound();
      return batchWithResults(row);
    },

    /** Continues an interrupted batch with the addresses it has not done. */
    async resume(id: string): Promise<GeocodingBatch> {
      if (!isUuid(id)) throw batchNotFound();
      if (isClosed) throw new AppError('CONFLICT', geocodingMessages.batchRunning);
      await sweepAbandoned();
      const existing = await repository.findBatch(id);
      if (!existing) throw batchNotFound();
      const row = await repository.resumeBatch(id, geocoder.name);
      if (row === 'busy' || existing.status === 'running') throw new AppError('CONFLICT', geocodingMessages.batchRunning);
      if (!row) throw new AppError('CONFLICT', 'This geocoding batch is already completed');
      launch(row);
      return batchWithResults(row);
    },

    /** Staff place the pin by hand: located there, accuracy ROOFTOP, the customer's own address as formatted address. */
    async placePin(id: string, body: unknown, actor: AuditActor): Promise<{ customer: Customer }> {
      const parsed = manualLocationSchema.safeParse(body);
      if (!parsed.success && parsed.error.issues.some((issue) => issue.message === geocodingMessages.manualPinOutside)) {
        throw new AppError('VALIDATION_FAILED', geocodingMessages.manualPinOutside);
      }
      const point = parseOrThrow(manualLocationSchema, body);
      if (!isUuid(id)) throw new AppError('NOT_FOUND', customerMessages.notFoundTitle);
      const row = await repository.placePin(id.toLowerCase(), point, addressLine, (tx, before, after) =>
        recordAudit(tx, {
          actor,
          entityType: 'customer',
          entityId: after.id,
          entityLabel: after.name,
          action: 'location_set',
          changes: diffFields(before, after, { only: ['latitude', 'longitude', 'geocodingStatus', 'geocodingAccuracy'] }),
        }),
      );
      if (!row) throw new AppError('NOT_FOUND', customerMessages.notFoundTitle);
      return { customer: toCustomer(row) };
    },

    /** Shutdown: the running batch stops after its current address and is left interrupted (resumable). */
    async close(): Promise<void> {
      isClosed = true;
      const running = active;
      if (!running) return;
      running.controller.abort();
      await running.done;
    },

    /** For tests and the benchmark: resolves when this process's running batch (if any) has stopped. */
    async whenIdle(): Promise<void> {
      await active?.done;
    },
  };
}

export type GeocodingService = ReturnType<typeof createGeocodingService>;
