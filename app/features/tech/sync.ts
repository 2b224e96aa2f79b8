import {
  techActionBatchResponseSchema,
  techBatchMaxActions,
  techBatchMaxBytes,
  techMessages,
  techOfflineDays,
  techPaymentResponseSchema,
  techPhotosResponseSchema,
  techSessionResponseSchema,
  techVisitsResponseSchema,
  type TechAction,
  type TechActionBatchResponse,
  type TechPayment,
  type TechVisit,
} from '#shared/tech.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';
import type { Owner, QueuedAction, QueuedPayment, QueuedPhoto, TechDatabase } from './db.ts';

/**
 * The offline queue and its sync loop (decision 022-b), plain TypeScript so tests drive it with
 * fake-indexeddb against a real HTTP server.
 *
 * - An action is applied to the device's copy at once (the screens fold the queue over the
 *   server's copy) and queued with an idempotency key, the visit's version the device knew
 *   (`baseUpdatedAt`) and when it happened (`takenAt`).
 * - `syncNow()` sends each visit's queue in order, in batches (`POST .../actions/batch`, at most
 *   techBatchMaxActions actions and techBatchMaxBytes, decision 022-d). For each action applied,
 *   the visit's next queued actions that were based on the version it was sent on are rebased on
 *   the version it left (the server follows the same chain inside a batch): the app chains its own
 *   changes, so only the office's changes make a conflict. The visit's server copy becomes the
 *   batch's answer, stored once. A batch stops at the first action the server refuses; the ones
 *   after it stay queued, in order.
 * - A network failure (or a 5xx, a 429) stops the loop; the caller retries later. A 409 keeps the
 *   action with the office's version (`current`) until the technician chooses; a 4xx marks it
 *   failed, shown and kept. Nothing is dropped without the technician's say.
 * - Photos go after the visit's other actions, each with its own idempotency key, until they arrive.
 * - A payment taken on site (decision 025-a) waits in the visit's queue in the order it was taken
 *   and goes alone to `POST .../payments` (never in a batch, never rebased: it is not a step of the
 *   visit and cannot conflict); a refusal (above the balance, an invoice the office voided) keeps it
 *   as failed with what was typed, for the technician to correct (`editPayment`), retry or discard.
 * - A shared phone (decision 022-d): each item keeps the technician who took it, and a sync sends
 *   only the items of the technician the server says is signed in (confirmed by a refresh in this
 *   page's life, forgotten on a 401); the others wait on the device for their owner to sign in.
 */

export type ActionInput = DistributiveOmit<TechAction | PaymentInput, 'idempotencyKey' | 'baseUpdatedAt' | 'takenAt'>;
/** A payment taken on site (decision 025-a): queued with the visit's actions, sent to its own route. */
export type PaymentInput = Omit<TechPayment, 'idempotencyKey' | 'takenAt'> & { kind: 'payment' };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type SyncOutcome = { sent: number; stoppedBy?: 'network' | 'unauthenticated' };
export type RefreshOutcome = 'ok' | 'offline' | 'unauthenticated' | 'forbidden' | 'error';

export class StorageFullError extends Error {
  constructor() {
    super(techMessages.storageFull);
    this.name = 'StorageFullError';
  }
}

export type TechSyncOptions = {
  db: TechDatabase;
  /** Where the API is ('' in the browser: same origin). */
  baseUrl?: string;
  now?: () => Date;
  randomUUID?: () => string;
  /**
   * The first day fetched, YYYY-MM-DD. By default none is sent: the server answers from the
   * business's today (its time zone, as techToday() names the days) for the kept days, and the
   * request is the one /tech's page preloads (decision 022-d).
   */
  today?: () => string;
  /** Extra headers on every request (tests outside a browser send the session cookie this way). */
  headers?: Record<string, string>;
};

function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: string; inner?: { name?: string } } | undefined)?.name;
  const inner = (error as { inner?: { name?: string } } | undefined)?.inner?.name;
  return name === 'QuotaExceededError' || inner === 'QuotaExceededError';
}

/** Retry later: no answer, or the server could not answer now. */
function isTransient(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;
}

const newer = (a: string, b: string) => Date.parse(a) >= Date.parse(b);

const encoder = new TextEncoder();
/** `{"actions":[` and `]}`, rounded up. */
const batchEnvelopeBytes = 64;

/** Visits whose queues are sent at the same time (each visit's own queue stays in order). */
const parallelVisits = 4;

export function createTechSync(options: TechSyncOptions) {
  const { db } = options;
  const baseUrl = options.baseUrl ?? '';
  const now = options.now ?? (() => new Date());
  const randomUUID = options.randomUUID ?? (() => crypto.randomUUID());
  const visitsUrl = () => (options.today ? `${baseUrl}/api/tech/visits?from=${options.today()}&days=${techOfflineDays}` : `${baseUrl}/api/tech/visits`);
  const headers = options.headers ?? {};
  /** The server's words when it refused the last refresh (403: not a technician, no technician linked). */
  let refusal: string | undefined;
  let running: Promise<SyncOutcome> | undefined;
  let again = false;
  /** The technician the server says is signed in, from a refresh since the page opened (or since the last 401). */
  let signedIn: { id: string; name: string } | undefined;

  /** Who takes an action now: the confirmed technician, else the last one this device knew. */
  async function currentOwner(): Promise<Owner | undefined> {
    const known = signedIn ?? ((await db.meta.get('technician'))?.value as { id: string; name: string } | undefined);
    return known ? { technicianId: known.id, technicianName: known.name } : undefined;
  }
  const isMine = (owner: Owner | undefined, technicianId: string | undefined) => !owner || owner.technicianId === technicianId;

  async function guardQuota<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isQuotaError(error)) throw new StorageFullError();
      throw error;
    }
  }

  /** Takes an action on the device: queued (applied at once on screen) with its key, base version and time. */
  async function enqueue(visitId: string, input: ActionInput): Promise<QueuedAction> {
    return guardQuota(() =>
      db.transaction('rw', [db.visits, db.queue, db.meta], async () => {
        const stored = await db.visits.get(visitId);
        if (!stored) throw new Error(techMessages.visitNotFound);
        const item: QueuedAction = {
          visitId,
          action: { ...input, idempotencyKey: randomUUID(), baseUpdatedAt: stored.visit.updatedAt, takenAt: now().toISOString() } as QueuedAction['action'],
          state: 'pending',
          owner: await currentOwner(),
          attempts: 0,
        };
        item.seq = await db.queue.add(item);
        return item;
      }),
    );
  }

  /** Keeps a photo's bytes on the device until it is uploaded; a full device throws StorageFullError. */
  async function addPhoto(visitId: string, file: Blob, name = 'photo.jpg'): Promise<QueuedPhoto> {
    const data = await file.arrayBuffer();
    const photo: QueuedPhoto = {
      visitId,
      idempotencyKey: randomUUID(),
      name,
      type: file.type || 'image/jpeg',
      data,
      takenAt: now().toISOString(),
      state: 'pending',
      owner: await currentOwner(),
      attempts: 0,
    };
    photo.seq = await guardQuota(() => db.photos.add(photo));
    return photo;
  }

  /** Fetches the next days' visits and keeps them (an older answer never replaces a newer copy). */
  async function refresh(): Promise<RefreshOutcome> {
    let answer;
    try {
      const raw = await apiFetch<unknown>(visitsUrl(), { headers });
      answer = techVisitsResponseSchema.parse(raw);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        signedIn = undefined;
        return 'unauthenticated';
      }
      if (error instanceof ApiError && error.status === 403) {
        refusal = error.message;
        return 'forbidden';
      }
      return isTransient(error) ? 'offline' : 'error';
    }
    await guardQuota(() =>
      db.transaction('rw', [db.visits, db.queue, db.photos, db.meta], async () => {
        const ids = new Set(answer.visits.map((visit) => visit.id));
        for (const visit of answer.visits) {
          const stored = await db.visits.get(visit.id);
          if (!stored || stored.technicianId !== answer.technician.id || newer(visit.updatedAt, stored.visit.updatedAt)) {
            await db.visits.put({ id: visit.id, serviceDate: visit.serviceDate, visit, technicianId: answer.technician.id });
          }
        }
        // Visits no longer in the window (done and past, reassigned): forgotten, unless work on them waits to sync.
        for (const stored of await db.visits.toArray()) {
          if (ids.has(stored.id)) continue;
          const waiting = (await db.queue.where('visitId').equals(stored.id).count()) + (await db.photos.where('visitId').equals(stored.id).count());
          if (waiting === 0) await db.visits.delete(stored.id);
        }
        await db.meta.put({ key: 'technician', value: answer.technician });
        await db.meta.put({ key: 'syncedAt', value: answer.syncedAt });
      }),
    );
    signedIn = { id: answer.technician.id, name: answer.technician.name };
    return 'ok';
  }

  /**
   * Keeps the thumbnails of the kept visits' photos on the device (fetched once each), and forgets
   * those no kept visit shows any more. Failures are left for the next refresh.
   */
  async function cacheThumbnails(): Promise<number> {
    const visits = await db.visits.toArray();
    const wanted = new Map(visits.flatMap((row) => row.visit.photos.map((photo) => [photo.id, photo.thumbnailUrl] as const)));
    const stored = new Set(await db.thumbnails.toCollection().primaryKeys());
    await db.thumbnails.bulkDelete([...stored].filter((id) => !wanted.has(id)));
    let fetched = 0;
    for (const [photoId, url] of wanted) {
      if (stored.has(photoId)) continue;
      try {
        const response = await fetch(`${baseUrl}${url}`, { credentials: 'same-origin', headers });
        if (!response.ok) continue;
        const data = await response.arrayBuffer();
        await db.thumbnails.put({ photoId, type: response.headers.get('content-type') ?? 'image/webp', data });
        fetched += 1;
      } catch {
        // No network, or no room: the next refresh tries again.
        return fetched;
      }
    }
    return fetched;
  }

  async function replaceServerCopy(visit: TechVisit) {
    const stored = await db.visits.get(visit.id);
    await db.visits.put({ id: visit.id, serviceDate: visit.serviceDate, visit, technicianId: stored?.technicianId ?? signedIn?.id });
  }

  /** Whether a failed send stops the whole loop: no network (retried later), or the session ended (sign in again). */
  function stopsTheLoop(error: unknown, outcome: SyncOutcome): boolean {
    if (isTransient(error)) {
      outcome.stoppedBy = 'network';
      return true;
    }
    if ((error as ApiError).status === 401) {
      signedIn = undefined;
      outcome.stoppedBy = 'unauthenticated';
      return true;
    }
    return false;
  }

  /**
   * A payment or photo whose send failed: one more attempt counted; false when the loop must stop
   * (no network: retried later; the session ended), else kept as failed with the server's words.
   */
  async function keepFailure(
    error: unknown,
    outcome: SyncOutcome,
    attempts: number,
    update: (changes: { attempts: number; state?: 'failed'; error?: string }) => Promise<unknown>,
  ): Promise<boolean> {
    if (isTransient(error)) await update({ attempts: attempts + 1 });
    if (stopsTheLoop(error, outcome)) return false;
    await update({ state: 'failed', error: (error as ApiError).message, attempts: attempts + 1 });
    return true;
  }

  /**
   * The next batch of a visit's pending actions, in order: at most `limit` (techBatchMaxActions)
   * and under the server's body limit, always at least one.
   */
  function nextBatch(pending: QueuedAction[], limit: number): QueuedAction[] {
    const batch: QueuedAction[] = [];
    let bytes = batchEnvelopeBytes;
    for (const item of pending) {
      if (batch.length >= limit) break;
      const size = encoder.encode(JSON.stringify(item.action)).length + 1;
      if (batch.length > 0 && bytes + size > techBatchMaxBytes) break;
      batch.push(item);
      bytes += size;
    }
    return batch;
  }

  /**
   * Stores a batch's answer in one transaction: the applied (and replayed) actions leave the queue,
   * in order, each moving the device's chain on (what stood on the version an action was sent on
   * now stands on the version it left, as one answer at a time did); the visit's server copy
   * becomes the answer's. Where the batch stopped, the action is a conflict (kept with the office's
   * version until the technician chooses) or a refusal (failed, shown and kept); the actions after
   * it stay pending, in order.
   */
  async function storeBatchAnswer(visitId: string, batch: QueuedAction[], answer: TechActionBatchResponse): Promise<void> {
    await db.transaction('rw', db.visits, db.queue, async () => {
      const waiting = (await db.queue.where('visitId').equals(visitId).sortBy('seq')).filter((item) => item.state === 'pending');
      const base = new Map(waiting.map((item) => [item.seq!, item.action.baseUpdatedAt]));
      const done = new Set<number>();
      for (const [index, result] of answer.results.entries()) {
        const item = batch[index];
        if (!item || item.action.idempotencyKey !== result.idempotencyKey) throw new Error('The server answered a batch out of order.');
        const sentBase = base.get(item.seq!) ?? item.action.baseUpdatedAt;
        done.add(item.seq!);
        for (const [seq, value] of base) if (!done.has(seq) && value === sentBase) base.set(seq, result.updatedAt);
      }
      await db.queue.bulkDelete([...done]);
      const stoppedAt = answer.stopped ? batch[answer.results.length] : undefined;
      await db.queue
        .where('visitId')
        .equals(visitId)
        .filter((item) => item.state === 'pending' && base.has(item.seq!))
        .modify((item) => {
          item.action.baseUpdatedAt = base.get(item.seq!)!;
          if (!answer.stopped || item.seq !== stoppedAt?.seq) return;
          item.attempts += 1;
          item.error = answer.stopped.message;
          if (answer.stopped.reason === 'conflict' && answer.visit) {
            item.state = 'conflict';
            item.current = answer.visit;
          } else item.state = 'failed';
        });
      // The copy moves on with what was applied (on a conflict: the office's version, which holds it too).
      if (answer.visit && answer.results.length > 0) await replaceServerCopy(answer.visit);
    });
  }

  /** Sends one visit's queue in order, in batches; false when the loop must stop (network, session). */
  async function sendVisitQueue(visitId: string, technicianId: string, outcome: SyncOutcome): Promise<boolean> {
    // A whole batch refused (a 400 or 413 naming no action): the rest of this visit goes one action a batch, so the refusal lands on its own action.
    let limit = techBatchMaxActions;
    for (;;) {
      const items = (await db.queue.where('visitId').equals(visitId).sortBy('seq')).filter((item) => isMine(item.owner, technicianId));
      // A conflict waits for the technician: what follows it is not sent around it.
      if (items.some((item) => item.state === 'conflict')) return true;
      const pending = items.filter((candidate) => candidate.state === 'pending');
      const head = pending[0];
      if (head?.action.kind === 'payment') {
        if (!(await sendPayment(visitId, head, outcome))) return false;
        continue;
      }
      // The steps up to the next payment go in a batch; the payment follows on its own.
      const nextPayment = pending.findIndex((candidate) => candidate.action.kind === 'payment');
      const batch = nextBatch(nextPayment < 0 ? pending : pending.slice(0, nextPayment), limit);
      if (batch.length === 0) break;
      const first = batch[0]!;
      try {
        const raw = await apiFetch<unknown>(`${baseUrl}/api/tech/visits/${encodeURIComponent(visitId)}/actions/batch`, {
          method: 'POST',
          body: { actions: batch.map((item) => item.action) },
          headers,
        });
        const answer = techActionBatchResponseSchema.parse(raw);
        await storeBatchAnswer(visitId, batch, answer);
        outcome.sent += answer.results.length;
        if (answer.stopped?.reason === 'conflict') return true;
      } catch (error) {
        if (isTransient(error)) await db.queue.update(first.seq!, { attempts: first.attempts + 1 });
        if (stopsTheLoop(error, outcome)) return false;
        if (batch.length > 1) {
          limit = 1;
          continue;
        }
        // A refusal of the one action (another's visit, an action the server cannot read).
        await db.queue.update(first.seq!, { state: 'failed', error: (error as ApiError).message, attempts: first.attempts + 1 });
      }
    }
    return sendVisitPhotos(visitId, technicianId, outcome);
  }

  /**
   * One payment to its route (decision 025-a): the answer (recorded, or recorded before: a replay)
   * takes it off the queue and becomes the visit's server copy (its invoices' balances moved).
   * False when the loop must stop (network, session); a refusal keeps it as failed.
   */
  async function sendPayment(visitId: string, item: QueuedAction, outcome: SyncOutcome): Promise<boolean> {
    // The route's body is the payment as taken: not its kind, nor the base version a payment does not use.
    const { kind: _kind, baseUpdatedAt: _baseUpdatedAt, ...body } = item.action as QueuedPayment;
    try {
      const raw = await apiFetch<unknown>(`${baseUrl}/api/tech/visits/${encodeURIComponent(visitId)}/payments`, { method: 'POST', body, headers });
      const answer = techPaymentResponseSchema.parse(raw);
      await db.transaction('rw', db.visits, db.queue, async () => {
        await db.queue.delete(item.seq!);
        await replaceServerCopy(answer.visit);
      });
      outcome.sent += 1;
      return true;
    } catch (error) {
      return keepFailure(error, outcome, item.attempts, (changes) => db.queue.update(item.seq!, changes));
    }
  }

  async function sendVisitPhotos(visitId: string, technicianId: string, outcome: SyncOutcome): Promise<boolean> {
    const photos = (await db.photos.where('visitId').equals(visitId).sortBy('seq')).filter((photo) => photo.state === 'pending' && isMine(photo.owner, technicianId));
    for (const photo of photos) {
      try {
        const form = new FormData();
        form.append('photos', new Blob([photo.data], { type: photo.type }), photo.name);
        let response: Response;
        try {
          response = await fetch(`${baseUrl}/api/tech/visits/${encodeURIComponent(visitId)}/photos`, {
            method: 'POST',
            body: form,
            headers: { ...headers, accept: 'application/json', 'idempotency-key': photo.idempotencyKey },
            credentials: 'same-origin',
          });
        } catch (error) {
          throw new ApiError(0, 'NETWORK', error instanceof Error ? error.message : 'Network error');
        }
        const body: unknown = await response.json().catch(() => undefined);
        if (!response.ok) {
          const failure = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
          throw new ApiError(response.status, (failure?.code ?? 'INTERNAL') as ApiError['code'], failure?.message ?? response.statusText);
        }
        const answer = techPhotosResponseSchema.parse(body);
        await db.transaction('rw', db.visits, db.photos, async () => {
          await db.photos.delete(photo.seq!);
          const stored = await db.visits.get(visitId);
          if (stored) {
            const known = new Set(stored.visit.photos.map((existing) => existing.id));
            const added = answer.photos.filter((uploaded) => !known.has(uploaded.id));
            await replaceServerCopy({ ...stored.visit, photos: [...added, ...stored.visit.photos] });
          }
        });
        outcome.sent += 1;
      } catch (error) {
        if (!(await keepFailure(error, outcome, photo.attempts, (changes) => db.photos.update(photo.seq!, changes)))) return false;
      }
    }
    return true;
  }

  async function runOnce(): Promise<SyncOutcome> {
    const outcome: SyncOutcome = { sent: 0 };
    const actions = await db.queue.orderBy('seq').toArray();
    const photos = await db.photos.orderBy('seq').toArray();
    if (actions.length + photos.length === 0) return outcome;
    // Whose items may go: the server says who is signed in (never the device's memory of it).
    if (!signedIn) {
      try {
        const session = techSessionResponseSchema.parse(await apiFetch<unknown>(`${baseUrl}/api/tech/session`, { headers }));
        signedIn = { id: session.technician.id, name: session.technician.name };
        // The device now knows who uses it (what the screens show and a sign-out removes).
        await db.meta.put({ key: 'technician', value: session.technician });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return { sent: 0, stoppedBy: 'unauthenticated' };
        if (isTransient(error)) return { sent: 0, stoppedBy: 'network' };
        return outcome;
      }
    }
    const technicianId = signedIn.id;
    // Visits in the order their oldest waiting item (of this technician) was taken.
    const visitIds = [...new Set([...actions, ...photos].filter((item) => isMine(item.owner, technicianId)).map((item) => item.visitId))];
    // Each visit's queue goes in order; different visits (different jobs, independent versions) go
    // side by side, a few at a time, so the phone's own work per answer (parse, store, redraw)
    // overlaps the network's (decision 022-d). A stop (network, session) ends every lane.
    let stopped = false;
    const lane = async () => {
      for (let visitId = visitIds.shift(); visitId !== undefined && !stopped; visitId = visitIds.shift()) {
        if (!(await sendVisitQueue(visitId, technicianId, outcome))) stopped = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallelVisits, visitIds.length) }, lane));
    return outcome;
  }

  /** Sends everything waiting (single flight: a call during a run makes the run go round once more). */
  function syncNow(): Promise<SyncOutcome> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      const total: SyncOutcome = { sent: 0 };
      try {
        do {
          again = false;
          const outcome = await runOnce();
          total.sent += outcome.sent;
          total.stoppedBy = outcome.stoppedBy;
          if (outcome.stoppedBy) break;
        } while (again);
      } finally {
        running = undefined;
      }
      return total;
    })();
    return running;
  }

  /** A conflict: send mine again on the office's version (same key); the actions after it follow that version too. */
  async function keepMine(seq: number): Promise<void> {
    await db.transaction('rw', db.visits, db.queue, async () => {
      const item = await db.queue.get(seq);
      if (!item || item.state !== 'conflict' || !item.current) return;
      const oldBase = item.action.baseUpdatedAt;
      const current = item.current;
      await replaceServerCopy(current);
      await db.queue
        .where('visitId')
        .equals(item.visitId)
        .filter((other) => other.seq === seq || (other.state === 'pending' && other.action.baseUpdatedAt === oldBase))
        .modify((other) => {
          other.action.baseUpdatedAt = current.updatedAt;
          if (other.seq === seq) {
            other.state = 'pending';
            delete other.current;
            delete other.error;
          }
        });
    });
  }

  /** A conflict: drop my action and take the office's version. */
  async function useOffice(seq: number): Promise<void> {
    await db.transaction('rw', db.visits, db.queue, async () => {
      const item = await db.queue.get(seq);
      if (!item || item.state !== 'conflict') return;
      await db.queue.delete(seq);
      if (item.current) await replaceServerCopy(item.current);
    });
  }

  /** A failed action or photo: try again (the technician fixed the cause) or let it go (their choice). */
  async function retryFailed(seq: number, table: 'queue' | 'photos' = 'queue'): Promise<void> {
    if (table === 'queue') await db.queue.update(seq, { state: 'pending', error: undefined });
    else await db.photos.update(seq, { state: 'pending', error: undefined });
  }
  async function discardFailed(seq: number, table: 'queue' | 'photos' = 'queue'): Promise<void> {
    if (table === 'queue') await db.queue.delete(seq);
    else await db.photos.delete(seq);
  }

  /**
   * A refused payment corrected by the technician (decision 025-a): the new values, queued again
   * under a new key (the refused one recorded nothing), in its place in the visit's order.
   */
  async function editPayment(seq: number, input: PaymentInput): Promise<void> {
    await guardQuota(() =>
      db.transaction('rw', db.queue, async () => {
        const item = await db.queue.get(seq);
        if (!item || item.state !== 'failed' || item.action.kind !== 'payment') return;
        const action: QueuedPayment = { ...input, kind: 'payment', idempotencyKey: randomUUID(), baseUpdatedAt: item.action.baseUpdatedAt, takenAt: item.action.takenAt };
        await db.queue.update(seq, { action, state: 'pending', error: undefined });
      }),
    );
  }

  /** What waits to be sent for the signed-in technician (the device's last known one before a refresh). */
  async function waitingCount(): Promise<number> {
    const technicianId = (await currentOwner())?.technicianId;
    const actions = await db.queue.filter((item) => isMine(item.owner, technicianId)).count();
    const photos = await db.photos.filter((photo) => isMine(photo.owner, technicianId)).count();
    return actions + photos;
  }

  /** A new page life under /tech (after a sign-in): who is signed in is asked of the server again. */
  function forgetSignedIn(): void {
    signedIn = undefined;
  }

  return { forgetSignedIn, enqueue, addPhoto, refresh, refusal: () => refusal, cacheThumbnails, syncNow, keepMine, useOffice, retryFailed, discardFailed, editPayment, waitingCount };
}

export type TechSync = ReturnType<typeof createTechSync>;
