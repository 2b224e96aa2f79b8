import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { geocodingMessages, type GeocodingBatch, type GeocodingBatchRequest, type GeocodingStats } from '#shared/geocoding.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

/**
 * Every geocoding query key starts with ['geocoding']: the live updates invalidate it when a batch
 * or a customer changes. While a batch runs it is also polled, in case the live stream is down.
 */
export const geocodingKeys = {
  all: ['geocoding'] as const,
  stats: () => [...geocodingKeys.all, 'stats'] as const,
  currentBatch: () => [...geocodingKeys.all, 'batch', 'current'] as const,
  batch: (id: string) => [...geocodingKeys.all, 'batch', id] as const,
};

/** How often a running batch is asked for its progress when no live update has come. */
export const batchPollMs = 1_000;

const batchesPath = '/api/admin/geocoding/batches';

export function useGeocodingStats() {
  return useQuery({
    queryKey: geocodingKeys.stats(),
    queryFn: ({ signal }) => apiFetch<GeocodingStats>('/api/admin/geocoding/stats', { signal }),
  });
}

const pollWhileRunning = (query: { state: { data: GeocodingBatch | null | undefined } }) => (query.state.data?.status === 'running' ? batchPollMs : false);

/** The latest batch (running, interrupted or finished), or null when none ever ran. */
export function useCurrentBatch() {
  return useQuery({
    queryKey: geocodingKeys.currentBatch(),
    queryFn: ({ signal }) => apiFetch<GeocodingBatch | null>(`${batchesPath}/current`, { signal }),
    refetchInterval: pollWhileRunning,
  });
}

/** One batch by id (the one this screen started), polled while it runs. */
export function useBatch(id: string | undefined) {
  return useQuery({
    queryKey: geocodingKeys.batch(id ?? ''),
    queryFn: ({ signal }) => apiFetch<GeocodingBatch>(`${batchesPath}/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
    refetchInterval: pollWhileRunning,
  });
}

function useBatchMutation(request: (input: string | GeocodingBatchRequest) => Promise<GeocodingBatch>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (batch) => {
      queryClient.setQueryData(geocodingKeys.batch(batch.id), batch);
      queryClient.setQueryData(geocodingKeys.currentBatch(), batch);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: geocodingKeys.stats() }),
  });
}

/** POST /api/admin/geocoding/batches: 202 with the batch; 409 when one is already running. */
export function useStartBatch() {
  return useBatchMutation((input) => apiFetch<GeocodingBatch>(batchesPath, { method: 'POST', body: input }));
}

export function useResumeBatch() {
  return useBatchMutation((id) => apiFetch<GeocodingBatch>(`${batchesPath}/${encodeURIComponent(id as string)}/resume`, { method: 'POST' }));
}

/** After a batch: the map's markers and header, and the stats, are read again. */
export function useRefreshAfterBatch() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['map'] }),
        queryClient.invalidateQueries({ queryKey: geocodingKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['customers'] }),
      ]),
    [queryClient],
  );
}

export function isBatchRunningConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

/** What the error box says about a failed request. */
export function geocodingErrorMessage(error: unknown): string {
  if (isBatchRunningConflict(error)) return geocodingMessages.batchRunning;
  if (error instanceof ApiError && error.code !== 'NETWORK' && error.code !== 'INTERNAL') return error.message;
  if (error instanceof ApiError && error.code === 'NETWORK') return 'The server could not be reached. Please check your connection and try again.';
  return 'An unexpected error occurred. Please try again.';
}

/** The summary of a finished batch: the server's words, or the spec's 'Processed ...' line. */
export function batchSummary(batch: GeocodingBatch): string {
  if (batch.message) return batch.message;
  if (batch.total === 0) return geocodingMessages.noneNeeded;
  return geocodingMessages.processed(batch.processed, batch.succeeded, batch.failed);
}
