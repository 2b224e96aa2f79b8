import { useEffect, useState } from 'react';
import type { GeocodingBatch, GeocodingBatchRequest } from '#shared/geocoding.ts';
import { apiFetch } from '#client/lib/api.ts';
import { geocodingErrorMessage, isBatchRunningConflict, useBatch, useCurrentBatch, useRefreshAfterBatch, useResumeBatch, useStartBatch } from './api.ts';

/**
 * Starting a server-side geocoding batch and following it to the end: the batch this screen
 * started (or resumed), else one already running or interrupted on the server (another screen's,
 * or one cut off by a restart). When it finishes, the map, the stats and the customers are read
 * again, once.
 */
export function useBatchRun() {
  const start = useStartBatch();
  const resume = useResumeBatch();
  const current = useCurrentBatch();
  const [startedId, setStartedId] = useState<string>();
  const [error, setError] = useState<string>();
  const started = useBatch(startedId);
  const refreshAfterBatch = useRefreshAfterBatch();

  const serverBatch = current.data && current.data.status !== 'completed' ? current.data : undefined;
  const batch: GeocodingBatch | undefined = started.data ?? serverBatch;
  const isRunning = batch?.status === 'running' || start.isPending || resume.isPending;

  // A batch seen running, now finished: refresh what it changed (once per batch).
  const [runningId, setRunningId] = useState<string>();
  if (batch?.status === 'running' && runningId !== batch.id) setRunningId(batch.id);
  const finishedId = batch && batch.status !== 'running' && runningId === batch.id ? batch.id : undefined;
  useEffect(() => {
    if (!finishedId) return;
    setRunningId(undefined);
    void refreshAfterBatch();
  }, [finishedId, refreshAfterBatch]);

  async function run(request: GeocodingBatchRequest) {
    setError(undefined);
    try {
      const next = await start.mutateAsync(request);
      setStartedId(next.id);
      if (next.status !== 'running') void refreshAfterBatch();
    } catch (failure) {
      setError(geocodingErrorMessage(failure));
      // Someone else's batch is running: follow that one.
      if (isBatchRunningConflict(failure)) {
        const running = await apiFetch<GeocodingBatch | null>('/api/admin/geocoding/batches/current').catch(() => null);
        if (running) setStartedId(running.id);
      }
    }
  }

  async function resumeBatch(id: string) {
    setError(undefined);
    try {
      const next = await resume.mutateAsync(id);
      setStartedId(next.id);
    } catch (failure) {
      setError(geocodingErrorMessage(failure));
    }
  }

  return { batch, isRunning, error, run, resume: resumeBatch, isStartedHere: Boolean(startedId && started.data?.id === startedId) };
}
