import { liveQuery } from 'dexie';
import { startTransition, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { TechVisit } from '#shared/tech.ts';
import { localVisit } from './apply-action.ts';
import { techDatabase, type Owner, type QueuedAction, type QueuedPhoto } from './db.ts';
import { createTechSync, type RefreshOutcome } from './sync.ts';

/**
 * The running app's sync: one queue for the page, sent when online, on the `online` event, after
 * every action, and retried with a growing delay after a network failure; the day's visits are
 * fetched again on open, when the network returns, after a sync and every minute while visible.
 */

export const techSync = createTechSync({ db: techDatabase() });

export type TechStatus = {
  online: boolean;
  /** The first answer from the server (or the lack of one) this page has had. */
  checked: boolean;
  access: 'ok' | 'unauthenticated' | 'forbidden';
  accessMessage?: string;
};

let status: TechStatus = { online: typeof navigator === 'undefined' ? true : navigator.onLine, checked: false, access: 'ok' };
const listeners = new Set<() => void>();
/** Every screen under /tech renders again on a new status: only a change makes one. */
function setStatus(change: Partial<TechStatus>) {
  if ((Object.keys(change) as (keyof TechStatus)[]).every((key) => status[key] === change[key])) return;
  status = { ...status, ...change };
  for (const listener of listeners) listener();
}

export function useTechStatus(): TechStatus {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => status,
    () => status,
  );
}

const refreshEveryMs = 60_000;
const maxRetryMs = 60_000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = 2_000;

function applyRefresh(outcome: RefreshOutcome, message?: string) {
  if (outcome === 'unauthenticated') setStatus({ access: 'unauthenticated', checked: true });
  else if (outcome === 'forbidden') setStatus({ access: 'forbidden', accessMessage: message, checked: true });
  // A read that was answered just before the network dropped must not undo the browser's 'offline'
  // event: while the browser says offline, the app says so too.
  else setStatus({ access: 'ok', checked: true, online: outcome !== 'offline' && navigator.onLine });
}

async function refreshNow() {
  const outcome = await techSync.refresh();
  applyRefresh(outcome, techSync.refusal());
  if (outcome === 'ok') void techSync.cacheThumbnails();
  return outcome;
}

/** Sends what waits, then reads the day again; a network failure schedules a retry (2 s, 4 s, ... 1 min). */
export async function syncAndRefresh(): Promise<void> {
  clearTimeout(retryTimer);
  const outcome = await techSync.syncNow();
  if (outcome.stoppedBy === 'unauthenticated') {
    setStatus({ access: 'unauthenticated' });
    return;
  }
  const refreshed = await refreshNow();
  if (outcome.stoppedBy === 'network' || refreshed === 'offline') {
    retryTimer = setTimeout(() => void syncAndRefresh(), retryDelay);
    retryDelay = Math.min(maxRetryMs, retryDelay * 2);
  } else {
    retryDelay = 2_000;
    if (outcome.sent > 0 && (await techSync.waitingCount()) > 0) void syncAndRefresh();
  }
}

/** Starts the loop for the page's life under /tech; returns the stop. */
export function startTechRuntime(): () => void {
  const onOnline = () => {
    setStatus({ online: true });
    // The browser may say online a moment before requests get through: the first retries come quickly.
    retryDelay = 250;
    void syncAndRefresh();
  };
  const onOffline = () => setStatus({ online: false });
  // Ask the browser not to evict the queue and the visits when the phone runs short of space.
  void navigator.storage?.persist?.().catch(() => false);
  // A new sign-in may be another technician's (a shared phone): the server says whose items may go.
  techSync.forgetSignedIn();
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  const interval = setInterval(() => {
    if (document.visibilityState === 'visible') void syncAndRefresh();
  }, refreshEveryMs);
  void syncAndRefresh();
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    clearInterval(interval);
    clearTimeout(retryTimer);
  };
}

export type TechTechnician = { id: string; name: string; color: string };

export type TechSnapshot = {
  /** The visits as the technician sees them (server copy with the queue applied), in day and time order. */
  visits: TechVisit[];
  /** The server's copies, for showing what the office has. */
  serverVisits: Map<string, TechVisit>;
  /** The signed-in technician's waiting actions and photos. */
  queue: QueuedAction[];
  photos: QueuedPhoto[];
  /** Other technicians' items on this phone (a shared phone), kept until they sign in again. */
  othersWaiting: { technicianId: string; name: string; count: number }[];
  technician?: TechTechnician;
  syncedAt?: string;
};

/**
 * Splits the device's copy by technician (decision 022-d): the signed-in one's visits and waiting
 * items, and a count per other technician whose items wait for them to sign in again.
 */
export function splitByTechnician<Visit extends { technicianId?: string }, Action extends { owner?: Owner }, Photo extends { owner?: Owner }>(
  technicianId: string | undefined,
  stored: { visits: Visit[]; queue: Action[]; photos: Photo[] },
): { visits: Visit[]; queue: Action[]; photos: Photo[]; othersWaiting: TechSnapshot['othersWaiting'] } {
  // Items and visits without a technician predate version 2 of the device's database (the upgrade stamps them).
  const mine = (owner: Owner | undefined) => !owner || owner.technicianId === technicianId;
  const others = new Map<string, { technicianId: string; name: string; count: number }>();
  for (const item of [...stored.queue, ...stored.photos]) {
    if (mine(item.owner)) continue;
    const owner = item.owner!;
    const entry = others.get(owner.technicianId) ?? { technicianId: owner.technicianId, name: owner.technicianName, count: 0 };
    entry.count += 1;
    others.set(owner.technicianId, entry);
  }
  return {
    visits: stored.visits.filter((row) => !row.technicianId || row.technicianId === technicianId),
    queue: stored.queue.filter((item) => mine(item.owner)),
    photos: stored.photos.filter((item) => mine(item.owner)),
    othersWaiting: [...others.values()],
  };
}

const windowOrder: Record<string, string> = { morning: '08:00:00', afternoon: '12:00:00', anytime: '23:59:00' };
export function visitSortKey(visit: TechVisit): string {
  return `${visit.serviceDate} ${visit.scheduledStartTime ?? windowOrder[visit.timePreference] ?? '23:59:00'} ${visit.workOrderNumber}`;
}

async function readSnapshot(): Promise<TechSnapshot> {
  const db = techDatabase();
  const [stored, queue, photos, technician, syncedAt] = await Promise.all([
    db.visits.toArray(),
    db.queue.orderBy('seq').toArray(),
    db.photos.orderBy('seq').toArray(),
    db.meta.get('technician'),
    db.meta.get('syncedAt'),
  ]);
  const me = technician?.value as TechTechnician | undefined;
  const split = splitByTechnician(me?.id, { visits: stored, queue, photos });
  const visits = split.visits.map((row) => localVisit(row.visit, split.queue)).sort((a, b) => visitSortKey(a).localeCompare(visitSortKey(b)));
  return {
    visits,
    serverVisits: new Map(split.visits.map((row) => [row.id, row.visit])),
    queue: split.queue,
    photos: split.photos,
    othersWaiting: split.othersWaiting,
    technician: me,
    syncedAt: syncedAt?.value as string | undefined,
  };
}

/**
 * The device's copy, live: every change in IndexedDB (an action, a sync, a refresh) renders again.
 * One query for the page, shared by every screen that shows it (the shell and My day or the visit):
 * during a sync each answer changes the copy, and reading it once per change rather than once per
 * screen halves the phone's work (decision 022-d).
 */
let latestSnapshot: TechSnapshot | undefined;
let snapshotQuery: { unsubscribe: () => void } | undefined;
const snapshotListeners = new Set<() => void>();

/**
 * A change is shown at once (a tap answers immediately); a burst of changes (a sync sending a
 * hundred actions, each one stored) redraws at most every `redrawEveryMs`, with the last state.
 */
const redrawEveryMs = 250;
let lastRedraw = 0;
let redrawTimer: ReturnType<typeof setTimeout> | undefined;

function subscribeSnapshot(listener: () => void): () => void {
  snapshotListeners.add(listener);
  const redraw = () => {
    redrawTimer = undefined;
    lastRedraw = performance.now();
    for (const each of snapshotListeners) each();
  };
  const publish = (snapshot: TechSnapshot | undefined) => {
    const isFirstRead = latestSnapshot === undefined;
    latestSnapshot = snapshot;
    // The copy as the page first reads it (often empty on a first visit) opens no burst: the day
    // that arrives right after it is shown at once, not up to `redrawEveryMs` later.
    if (isFirstRead) {
      for (const each of snapshotListeners) each();
      return;
    }
    if (redrawTimer !== undefined) return;
    const wait = lastRedraw + redrawEveryMs - performance.now();
    if (wait <= 0) redraw();
    else redrawTimer = setTimeout(redraw, wait);
  };
  snapshotQuery ??= liveQuery(readSnapshot).subscribe({ next: publish, error: () => publish(undefined) });
  return () => {
    snapshotListeners.delete(listener);
    if (snapshotListeners.size > 0) return;
    // The last screen left /tech: the next visit reads afresh (it may be another technician's).
    snapshotQuery?.unsubscribe();
    snapshotQuery = undefined;
    latestSnapshot = undefined;
    clearTimeout(redrawTimer);
    redrawTimer = undefined;
  };
}

/**
 * The device's copy for a screen. A new copy is rendered as a transition (React renders it in
 * slices, yielding to taps between them) rather than as a synchronous store update, which
 * rendered the whole screen in one task: on a slow phone, a long task at each change of the copy
 * (decision 022-d). The screens sharing the copy are updated in the same transition.
 */
export function useTechSnapshot(): TechSnapshot | undefined {
  const [snapshot, setSnapshot] = useState<TechSnapshot | undefined>(() => latestSnapshot);
  const snapshotAtRender = useRef(snapshot);
  snapshotAtRender.current = snapshot;
  useEffect(() => {
    const show = () => startTransition(() => setSnapshot(latestSnapshot));
    const unsubscribe = subscribeSnapshot(show);
    // A change between this screen's render and its subscription.
    if (latestSnapshot !== snapshotAtRender.current) show();
    return unsubscribe;
  }, []);
  return snapshot;
}

/** A photo's thumbnail from the device when kept there (works offline), else its address on the server. */
export function useThumbnailUrl(photoId: string, serverUrl: string): string {
  const [kept, setKept] = useState<{ photoId: string; url: string }>();
  useEffect(() => {
    let url: string | undefined;
    const subscription = liveQuery(() => techDatabase().thumbnails.get(photoId)).subscribe({
      next: (row) => {
        if (!row || url) return;
        url = URL.createObjectURL(new Blob([row.data], { type: row.type }));
        setKept({ photoId, url });
      },
    });
    return () => {
      subscription.unsubscribe();
      if (url) URL.revokeObjectURL(url);
    };
  }, [photoId]);
  return kept?.photoId === photoId ? kept.url : serverUrl;
}
