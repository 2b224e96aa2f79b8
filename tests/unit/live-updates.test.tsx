// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveDebounceMs, liveEventsPath, useLiveUpdates } from '#client/features/live/use-live-updates.ts';
import { liveMinIntervalMs, queryKeysForTopics } from '#client/features/live/live-query-keys.ts';
import { ApiError } from '#client/lib/api.ts';

/** Just enough of EventSource to drive the hook: the test plays the server. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(name: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(name: string, data = '{}') {
    if (name !== 'error') this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners.get(name) ?? []) listener(new MessageEvent(name, { data }));
  }
  /** The browser gave up (the server answered 401 or 429). */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    this.emit('error');
  }
}

const cachedKeys: QueryKey[] = [
  ['work-orders', 'list', { page: 1 }],
  ['customers', 'detail', 'c1'],
  ['leads', 'list'],
  ['dashboard'],
  ['notifications', 'list', { limit: 20 }],
  ['calendar', 'week'],
  ['map'],
  ['technicians', 'active'],
  ['auth', 'session'],
];

let queryClient: QueryClient;
const latest = () => FakeEventSource.instances.at(-1)!;
const invalidated = () => cachedKeys.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => String(key[0]));

function mount() {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => useLiveUpdates(), { wrapper });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const key of cachedKeys) queryClient.setQueryData(key, { cached: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('topic to query keys', () => {
  it('gives each prefix once for a set of topics', () => {
    expect(queryKeysForTopics(['work_orders', 'customers'])).toEqual([['work-orders'], ['dashboard'], ['customers'], ['calendar'], ['map'], ['agreements'], ['leads'], ['geocoding']]);
    expect(queryKeysForTopics(['admin_notifications'])).toEqual([['notifications']]);
    expect(queryKeysForTopics(['geocoding_batches'])).toEqual([['geocoding'], ['map']]);
  });
});

describe('useLiveUpdates', () => {
  it('opens one stream and closes it on unmount', () => {
    const view = mount();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(latest().url).toBe(liveEventsPath);
    view.unmount();
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
  });

  it('invalidates the prefixes of changed topics once, after a short quiet period', async () => {
    mount();
    const spy = vi.spyOn(queryClient, 'invalidateQueries');
    latest().emit('change', JSON.stringify({ topic: 'admin_notifications', action: 'insert' }));
    latest().emit('change', JSON.stringify({ topic: 'estimate_requests', action: 'insert' }));
    latest().emit('change', JSON.stringify({ topic: 'estimate_requests', action: 'update' }));
    await vi.advanceTimersByTimeAsync(liveDebounceMs - 1);
    expect(invalidated()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(invalidated().sort()).toEqual(['dashboard', 'leads', 'notifications']);
    // One call per prefix, however many events came in the burst.
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it('refetches the map at most once per interval during a stream of changes, and applies the last one', async () => {
    mount();
    const spy = vi.spyOn(queryClient, 'invalidateQueries');
    const mapCalls = () => spy.mock.calls.filter(([filters]) => filters?.queryKey?.[0] === 'map').length;
    latest().emit('change', JSON.stringify({ topic: 'customers', action: 'update' }));
    await vi.advanceTimersByTimeAsync(liveDebounceMs);
    expect(mapCalls()).toBe(1);
    // A geocoding batch: a customer every half second, for two seconds.
    for (let i = 0; i < 4; i += 1) {
      latest().emit('change', JSON.stringify({ topic: 'customers', action: 'update' }));
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(mapCalls()).toBe(1);
    // Other screens are not held back.
    expect(spy.mock.calls.filter(([filters]) => filters?.queryKey?.[0] === 'customers').length).toBe(5);
    await vi.advanceTimersByTimeAsync(liveMinIntervalMs.map!);
    expect(mapCalls()).toBe(2);
    await vi.advanceTimersByTimeAsync(liveMinIntervalMs.map! * 2);
    expect(mapCalls()).toBe(2);
  });

  it('ignores events it does not understand', async () => {
    mount();
    latest().emit('change', 'not json');
    latest().emit('change', JSON.stringify({ topic: 'sessions', action: 'delete' }));
    await vi.advanceTimersByTimeAsync(liveDebounceMs * 2);
    expect(invalidated()).toEqual([]);
  });

  it('treats every cached staff query as stale on `ready`, but not the session', async () => {
    mount();
    latest().emit('ready');
    await vi.advanceTimersByTimeAsync(liveDebounceMs);
    expect(invalidated()).toEqual(['work-orders', 'customers', 'leads', 'dashboard', 'notifications', 'calendar', 'map', 'technicians']);
  });

  it('leaves a record the server said is missing (404) alone, on `ready` and on a change; other failures are refetched', async () => {
    const failWith = (queryKey: QueryKey, error: ApiError) =>
      queryClient.getQueryCache().build(queryClient, { queryKey }).setState({ status: 'error', error, data: undefined, fetchStatus: 'idle' });
    const missing = ['work-orders', 'detail', 'gone'];
    const failed = ['work-orders', 'detail', 'failed'];
    failWith(missing, new ApiError(404, 'NOT_FOUND', 'Work order not found.'));
    failWith(failed, new ApiError(500, 'INTERNAL', 'Something went wrong.'));
    mount();
    latest().emit('ready');
    await vi.advanceTimersByTimeAsync(liveDebounceMs);
    expect(queryClient.getQueryState(missing)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(failed)?.isInvalidated).toBe(true);
    queryClient.getQueryCache().find({ queryKey: failed })!.setState({ isInvalidated: false });
    latest().emit('change', JSON.stringify({ topic: 'work_orders', action: 'update' }));
    await vi.advanceTimersByTimeAsync(liveDebounceMs);
    expect(queryClient.getQueryState(missing)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(failed)?.isInvalidated).toBe(true);
  });

  it('after a refusal rechecks the session and reconnects with backoff; at once when the tab comes back online', async () => {
    mount();
    latest().refuse();
    expect(queryClient.getQueryState(['auth', 'session'])?.isInvalidated).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeEventSource.instances).toHaveLength(2);

    latest().refuse();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeEventSource.instances).toHaveLength(2); // the second wait is longer
    window.dispatchEvent(new Event('online'));
    expect(FakeEventSource.instances).toHaveLength(3);
    expect(FakeEventSource.instances[1]!.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('leaves a connection the browser is still retrying alone', async () => {
    mount();
    latest().emit('error'); // readyState stays CONNECTING: EventSource retries by itself
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
