import { Dexie, type DexieOptions, type Table } from 'dexie';
import type { TechAction, TechPayment, TechVisit } from '#shared/tech.ts';

/**
 * The technician app's copy on the device (decision 022-b): the server's last answer per visit,
 * the actions taken and not yet accepted by the server (in the order they were taken), and the
 * photos waiting to be uploaded. What the screens show is the server's copy with the queue applied.
 */

/**
 * The server's last answer for one visit (never changed on the device: the queue is applied on top),
 * and the technician whose day it came in (a shared phone can hold another's visits while their work waits).
 */
export type StoredVisit = { id: string; serviceDate: string; visit: TechVisit; technicianId?: string };

/**
 * Whose an item waiting to sync is (decision 022-d): the queue belongs to the device, so each item
 * keeps the technician who took it, and is sent only while that technician is signed in.
 */
export type Owner = { technicianId: string; technicianName: string };

export type QueueState = 'pending' | 'failed' | 'conflict';

/** A step of the visit: sent in the visit's batches under the 409 version rule. */
export type QueuedStep = TechAction & { idempotencyKey: string; baseUpdatedAt: string; takenAt: string };
/**
 * Money taken on site (decision 025-a): queued in the visit's order like a step, sent to its own
 * route (`POST /api/tech/visits/:id/payments`, without `kind` and `baseUpdatedAt`). It is not a
 * step of the visit: its base version is kept only so the queue's rebasing treats every item alike.
 */
export type QueuedPayment = TechPayment & { kind: 'payment'; idempotencyKey: string; baseUpdatedAt: string; takenAt: string };

export type QueuedAction = {
  /** Auto-increment: the order the actions were taken in. */
  seq?: number;
  visitId: string;
  action: QueuedStep | QueuedPayment;
  state: QueueState;
  /** Who took it (missing only on items queued before version 2, which the upgrade stamps). */
  owner?: Owner;
  /** Why the server refused it (a 4xx other than 409). */
  error?: string;
  /** A 409: the office's current version. */
  current?: TechVisit;
  attempts: number;
};

export type QueuedPhoto = {
  seq?: number;
  visitId: string;
  idempotencyKey: string;
  name: string;
  type: string;
  /** The bytes (an ArrayBuffer stores reliably in every browser's IndexedDB, unlike some Blobs). */
  data: ArrayBuffer;
  takenAt: string;
  state: 'pending' | 'failed';
  /** Who took it (as QueuedAction.owner). */
  owner?: Owner;
  error?: string;
  attempts: number;
};

export type MetaRow = { key: string; value: unknown };

/** A photo's thumbnail kept for offline viewing (the service worker never caches /api). */
export type StoredThumbnail = { photoId: string; type: string; data: ArrayBuffer };

export class TechDatabase extends Dexie {
  visits!: Table<StoredVisit, string>;
  queue!: Table<QueuedAction, number>;
  photos!: Table<QueuedPhoto, number>;
  meta!: Table<MetaRow, string>;
  thumbnails!: Table<StoredThumbnail, string>;

  constructor(name = 'hvac-tech', options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({
      visits: 'id, serviceDate',
      queue: '++seq, visitId, state',
      photos: '++seq, visitId, idempotencyKey',
      meta: 'key',
      thumbnails: 'photoId',
    });
    // Version 2: each waiting item and kept visit names its technician; what waited before belongs to
    // whoever the device last knew (the only one it could have been).
    this.version(2)
      .stores({})
      .upgrade(async (tx) => {
        const known = (await tx.table<MetaRow, string>('meta').get('technician'))?.value as { id: string; name: string } | undefined;
        if (!known) return;
        const owner: Owner = { technicianId: known.id, technicianName: known.name };
        await tx.table<QueuedAction, number>('queue').toCollection().modify((item) => {
          item.owner ??= owner;
        });
        await tx.table<QueuedPhoto, number>('photos').toCollection().modify((photo) => {
          photo.owner ??= owner;
        });
        await tx.table<StoredVisit, string>('visits').toCollection().modify((visit) => {
          visit.technicianId ??= known.id;
        });
      });
  }
}

let shared: TechDatabase | undefined;

/** The app's one database (opened lazily, so importing this costs nothing on the server or in tests). */
export function techDatabase(): TechDatabase {
  shared ??= new TechDatabase();
  return shared;
}

/**
 * Signing out: the signed-in technician's copy and waiting items leave the phone; another
 * technician's waiting items (a shared phone) and the visits they stand on stay for their owner.
 */
export async function forgetTechnician(db: TechDatabase): Promise<void> {
  await db.transaction('rw', [db.visits, db.queue, db.photos, db.meta], async () => {
    const me = ((await db.meta.get('technician'))?.value as { id: string } | undefined)?.id;
    const others = (owner: Owner | undefined) => owner !== undefined && owner.technicianId !== me;
    await db.queue.filter((item) => !others(item.owner)).delete();
    await db.photos.filter((photo) => !others(photo.owner)).delete();
    const kept = new Set([...(await db.queue.toArray()).map((item) => item.visitId), ...(await db.photos.toArray()).map((photo) => photo.visitId)]);
    await db.visits.filter((row) => !kept.has(row.id)).delete();
    await db.meta.clear();
  });
}
