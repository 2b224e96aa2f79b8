import { useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveTopics, type LiveTopic } from '#shared/live-events.ts';
import { authKeys } from '#client/features/auth/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { liveMinIntervalMs, queryKeysForTopics } from './live-query-keys.ts';

export const liveEventsPath = '/api/admin/events';
/** A burst of changes (a bulk import, a booking touching four tables) becomes one refetch. */
export const liveDebounceMs = 150;
const reconnectDelaysMs = [2_000, 5_000, 15_000, 30_000, 60_000];

const isLiveTopic = (value: unknown): value is LiveTopic => liveTopics.includes(value as LiveTopic);

/**
 * A record the server said does not exist (404) stays missing: a change elsewhere does not bring it
 * back. Refetching it would only flash "Loading" over its "not found" screen (a query without data
 * goes back to pending while it refetches) and swallow a click on that screen's way back.
 */
const isMissingRecord = (query: Query) => query.state.status === 'error' && query.state.error instanceof ApiError && query.state.error.status === 404;

/** Everything staff screens cached is stale (the session itself is not: it has its own rules). */
function invalidateAllAdminQueries(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.session[0] && !isMissingRecord(query) });
}

/**
 * Keeps the staff screens current: one EventSource to the server's change feed for the whole admin
 * layout. A change invalidates the queries of its topic; `ready` (every connection and
 * reconnection) invalidates everything, so whatever happened while disconnected is refetched.
 * EventSource retries a dropped connection by itself; a refused one (401, 429) or a browser that gave
 * up is retried here with backoff, at once when the tab comes back online or into view.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let isDisposed = false;
    let failures = 0;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let isEverythingStale = false;
    const changedTopics = new Set<LiveTopic>();
    const lastInvalidatedAt = new Map<string, number>();
    const deferredTimers = new Map<string, ReturnType<typeof setTimeout>>();

    /** Invalidates a prefix now, or when its minimum interval (liveMinIntervalMs) has passed. */
    const invalidate = (queryKey: QueryKey) => {
      const id = JSON.stringify(queryKey);
      if (deferredTimers.has(id)) return;
      const wait = (lastInvalidatedAt.get(id) ?? -Infinity) + (liveMinIntervalMs[String(queryKey[0])] ?? 0) - Date.now();
      if (wait > 0) {
        deferredTimers.set(id, setTimeout(() => (deferredTimers.delete(id), invalidate(queryKey)), wait));
        return;
      }
      lastInvalidatedAt.set(id, Date.now());
      void queryClient.invalidateQueries({ queryKey, predicate: (query) => !isMissingRecord(query) });
    };

    const flush = () => {
      flushTimer = undefined;
      if (isEverythingStale) void invalidateAllAdminQueries(queryClient);
      else for (const queryKey of queryKeysForTopics(changedTopics)) invalidate(queryKey);
      isEverythingStale = false;
      changedTopics.clear();
    };
    const scheduleFlush = () => {
      flushTimer ??= setTimeout(flush, liveDebounceMs);
    };

    const connect = () => {
      clearTimeout(reconnectTimer);
      source?.close();
      const current = new EventSource(liveEventsPath);
      source = current;
      current.addEventListener('ready', () => {
        failures = 0;
        isEverythingStale = true;
        scheduleFlush();
      });
      current.addEventListener('change', (event) => {
        let topic: unknown;
        try {
          topic = (JSON.parse((event as MessageEvent<string>).data) as { topic?: unknown }).topic;
        } catch {
          return;
        }
        if (!isLiveTopic(topic)) return;
        changedTopics.add(topic);
        scheduleFlush();
      });
      current.addEventListener('error', () => {
        // CONNECTING: the browser is retrying by itself. CLOSED: it gave up (the server refused).
        if (current.readyState !== EventSource.CLOSED || isDisposed) return;
        // A refusal may mean the session ended: the layout's guard rechecks and sends staff to login.
        void queryClient.invalidateQueries({ queryKey: authKeys.session });
        const delay = reconnectDelaysMs[Math.min(failures, reconnectDelaysMs.length - 1)]!;
        failures += 1;
        reconnectTimer = setTimeout(connect, delay);
      });
    };

    const reconnectIfClosed = () => {
      if (isDisposed || document.visibilityState === 'hidden') return;
      if (!source || source.readyState === EventSource.CLOSED) connect();
    };

    connect();
    window.addEventListener('online', reconnectIfClosed);
    document.addEventListener('visibilitychange', reconnectIfClosed);
    return () => {
      isDisposed = true;
      clearTimeout(reconnectTimer);
      clearTimeout(flushTimer);
      for (const timer of deferredTimers.values()) clearTimeout(timer);
      source?.close();
      window.removeEventListener('online', reconnectIfClosed);
      document.removeEventListener('visibilitychange', reconnectIfClosed);
    };
  }, [queryClient]);
}
