import { Link } from 'react-router';
import { geocodingLimits, geocodingMessages, type GeocodingBatch } from '#shared/geocoding.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { customerProfilePath, placePinPath } from '#client/features/customers/index.ts';
import { batchSummary, geocodingErrorMessage, useGeocodingStats } from './api.ts';
import { useBatchRun } from './use-batch-run.ts';

/**
 * Geocoding setup (spec 001 section 2): the status panel, batches of 5 run on the server with
 * their progress and results, the error box and the instructions. A batch cut off by a restart
 * can be resumed; failed addresses can be retried or placed by hand on the map.
 */
export function GeocodingSetup() {
  const stats = useGeocodingStats();
  const run = useBatchRun();
  const batch = run.batch;
  const pending = stats.data?.pending ?? 0;
  const failed = stats.data?.failed ?? 0;
  const nextCount = Math.min(geocodingLimits.setupBatchSize, pending);
  const error = run.error ?? (stats.isError ? geocodingErrorMessage(stats.error) : undefined);

  return (
    <section aria-labelledby="geocoding-title" className="mx-auto max-w-4xl space-y-5">
      <div>
        <h1 id="geocoding-title" className="text-2xl font-bold text-slate-900">
          {geocodingMessages.setupTitle}
        </h1>
        <p className="mt-1 text-sm text-slate-600">Convert customer addresses to map coordinates in small batches.</p>
      </div>

      <section aria-labelledby="geocoding-status-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="geocoding-status-title" className="text-lg font-semibold text-slate-900">
          Status
        </h2>
        {stats.isPending ? (
          <p role="status" className="mt-3 text-sm text-slate-600">
            Loading stats...
          </p>
        ) : stats.data ? (
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="geocoding-status">
            <Figure label="Total customers" value={stats.data.total} />
            <Figure label="Geocoded" value={stats.data.success} />
            <Figure label="Failed" value={stats.data.failed} />
            <Figure label="Pending" value={stats.data.pending} />
            <Figure label="Success rate" value={`${stats.data.percentage}%`} />
          </dl>
        ) : null}

        <div className="mt-5 flex flex-wrap gap-2">
          {pending > 0 ? (
            <Button variant="accent" disabled={run.isRunning} onClick={() => void run.run({ count: geocodingLimits.setupBatchSize })}>
              {geocodingMessages.geocodeNext(nextCount)}
            </Button>
          ) : null}
          {failed > 0 ? (
            <Button variant="secondary" disabled={run.isRunning} onClick={() => void run.run({ count: geocodingLimits.setupBatchSize, retryFailed: true })}>
              {geocodingMessages.retryFailed}
            </Button>
          ) : null}
          <Button variant="secondary" disabled={stats.isFetching} onClick={() => void stats.refetch()}>
            {geocodingMessages.refreshStats}
          </Button>
          {stats.data && pending === 0 ? (
            <Link to="/admin/map" className={buttonClass('primary')}>
              {geocodingMessages.goToMap}
            </Link>
          ) : null}
        </div>
        {stats.data && pending === 0 && failed === 0 && !batch ? (
          <p role="status" className="mt-3 text-sm text-slate-700">
            {geocodingMessages.noneNeeded}
          </p>
        ) : null}
      </section>

      <div aria-live="assertive">{error ? <Alert>{error}</Alert> : null}</div>

      {batch ? <BatchProgress batch={batch} onResume={() => void run.resume(batch.id)} isResuming={run.isRunning} /> : null}

      <section aria-labelledby="geocoding-instructions-title" className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm sm:p-6">
        <h2 id="geocoding-instructions-title" className="text-lg font-semibold text-slate-900">
          Instructions
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {geocodingMessages.instructions.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="rounded-md bg-slate-50 p-3">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

function BatchProgress({ batch, onResume, isResuming }: { batch: GeocodingBatch; onResume: () => void; isResuming: boolean }) {
  const percent = batch.total === 0 ? 100 : Math.round((batch.processed / batch.total) * 100);
  return (
    <section aria-labelledby="geocoding-batch-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="geocoding-batch-title" className="text-lg font-semibold text-slate-900">
          {batch.status === 'running' ? 'Geocoding...' : batch.status === 'interrupted' ? 'Batch interrupted' : 'Batch results'}
        </h2>
        {batch.status === 'interrupted' ? (
          <Button size="sm" onClick={onResume} disabled={isResuming}>
            Resume
          </Button>
        ) : null}
      </div>
      <div>
        <div className="flex justify-between text-sm text-slate-700">
          <span id="geocoding-progress-label">Progress</span>
          <span data-testid="geocoding-progress-count">
            {batch.processed}/{batch.total}
          </span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="geocoding-progress-label"
          aria-valuemin={0}
          aria-valuemax={batch.total}
          aria-valuenow={batch.processed}
          aria-valuetext={`${batch.processed} of ${batch.total}`}
          className="mt-1 h-3 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      </div>
      {batch.status === 'interrupted' ? (
        <p className="text-sm text-slate-700">The server stopped before this batch finished. Resume it to geocode the {batch.total - batch.processed} addresses it has left.</p>
      ) : null}
      <p role="status" className="text-sm font-medium text-slate-800">
        {batch.status === 'completed' ? batchSummary(batch) : ''}
      </p>
      {batch.results.length > 0 ? (
        <ul aria-label="Batch results" className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {batch.results.map((result) => (
            <li key={result.customerId} className="flex flex-wrap items-start justify-between gap-2 p-3 text-sm">
              <div className="min-w-0">
                <Link to={customerProfilePath(result.customerId)} className="font-semibold text-brand-700 hover:underline">
                  {result.name}
                </Link>
                <p className="text-slate-600">{result.address}</p>
                {result.status === 'success' ? (
                  <p className="text-slate-800">
                    {result.latitude?.toFixed(6)}, {result.longitude?.toFixed(6)}
                    {result.accuracy ? <span className="text-slate-600"> ({result.accuracy})</span> : null}
                  </p>
                ) : (
                  <p className="text-red-800">{result.error}</p>
                )}
                {result.warnings.length > 0 ? <p className="text-amber-900">{result.warnings.join('; ')}</p> : null}
              </div>
              <div className="flex flex-col items-end gap-2">
                <Badge tone={result.status === 'success' ? 'success' : 'danger'}>{result.status === 'success' ? 'Geocoded' : 'Failed'}</Badge>
                {result.status === 'failed' ? (
                  <Link to={placePinPath(result.customerId)} className="text-sm font-semibold text-brand-700 hover:underline">
                    Place pin on map
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
