// The service map's controls: the filter selects and toggles, the legend, the geocoding line,
// the list of markers sharing one spot, and placing a customer's pin by hand.
import { useId, useState } from 'react';
import { geocodingLimits, geocodingMessages, isInsideSouthCarolina } from '#shared/geocoding.ts';
import { mapMessages, markerSize, type MapViewMode } from '#shared/map.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { useCustomerProfile } from '#client/features/customers/index.ts';
import { batchSummary, geocodingErrorMessage, useGeocodingStats, useBatchRun } from '#client/features/geocoding/index.ts';
import { useSetCustomerLocation } from './api.ts';
import { markerFills, type MapPoint } from './map-points.ts';

const optionLabel = (value: string) => (value === 'all' ? 'All' : value.replace(/-/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()));

/** Markers on one spot, with how many there are in all. */
export type Stacked = { points: MapPoint[]; total: number; latitude: number; longitude: number };

/** Several markers on one spot (customers sharing a ZIP centroid or a building): pick one. */
export function StackedList({ stacked, onPick }: { stacked: Stacked; onPick: (point: MapPoint) => void }) {
  return (
    <div className="space-y-2" data-testid="map-popup">
      <h2 className="text-base font-bold text-slate-900">{stacked.total} at this spot</h2>
      <ul className="max-h-60 space-y-1 overflow-y-auto">
        {stacked.points.map((point) => (
          <li key={point.id}>
            <button type="button" className="w-full rounded px-2 py-1 text-left text-sm text-brand-700 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-600" onClick={(event) => {
                // The list's popup is replaced by the picked marker's while this click is handled
                // (React listens on the popup's portal): Leaflet, seeing a click whose button has
                // left the popup, would take it for a click on the map and close the new popup.
                event.stopPropagation();
                onPick(point);
              }}>
              {point.label}
            </button>
          </li>
        ))}
      </ul>
      {stacked.total > stacked.points.length ? <p className="text-xs text-slate-600">{mapMessages.more(stacked.total - stacked.points.length)}</p> : null}
    </div>
  );
}

export function Select<const Options extends readonly string[]>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: Options[number];
  options: Options;
  labels?: Partial<Record<Options[number], string>>;
  onChange: (value: Options[number]) => void;
}) {
  const id = useId();
  return (
    <div className="min-w-36">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Options[number])} className={`${controlClass} py-1.5`}>
        {options.map((option) => (
          <option key={option} value={option}>
            {labels?.[option as Options[number]] ?? optionLabel(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800 sm:min-h-9">
      <input type="checkbox" role="switch" checked={checked} onChange={(event) => onChange(event.target.checked)} className="size-5 accent-brand-700" />
      {label}
    </label>
  );
}

const legends: Record<MapViewMode, { label: string; color: keyof typeof markerFills }[]> = {
  workOrders: [
    { label: 'In Progress', color: 'blue' },
    { label: 'Emergency', color: 'red' },
    { label: 'Urgent', color: 'amber' },
    { label: 'Pending', color: 'yellow' },
    { label: 'Scheduled', color: 'purple' },
    { label: 'Other', color: 'grey' },
  ],
  customers: [
    { label: 'Commercial, active work orders', color: 'red' },
    { label: 'Commercial', color: 'amber' },
    { label: 'Residential, active work orders', color: 'blue' },
    { label: 'Residential', color: 'green' },
  ],
};

export function Legend({ view }: { view: MapViewMode }) {
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700">
      {legends[view].map((entry) => (
        <li key={entry.label} className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3.5 rounded-full border border-white shadow" style={{ backgroundColor: markerFills[entry.color].fill }} />
          {entry.label}
        </li>
      ))}
      <li className="inline-flex items-center gap-2 text-slate-600">
        <span aria-hidden="true" className="inline-block rounded-full bg-slate-400" style={{ width: markerSize(0) / 2, height: markerSize(0) / 2 }} />
        <span aria-hidden="true" className="inline-block rounded-full bg-slate-400" style={{ width: markerSize(4) / 2, height: markerSize(4) / 2 }} />
        Larger markers have more active work orders
      </li>
      <li className="inline-flex items-center gap-2">
        <span aria-hidden="true" className="inline-flex size-4 items-center justify-center rounded-full bg-white text-[11px] font-bold text-amber-700 shadow">
          {'\u2605'}
        </span>
        Maintenance plan member
      </li>
    </ul>
  );
}

/** The stats line and the 'Geocode {n} addresses' button (a batch of 20; the map and stats reload after). */
export function GeocodingHeader() {
  const stats = useGeocodingStats();
  const run = useBatchRun();
  const batch = run.batch;
  if (!stats.data) return null;
  const { success, total, percentage, pending } = stats.data;
  const count = Math.min(geocodingLimits.mapBatchSize, pending);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span data-testid="geocoding-stats">{geocodingMessages.statsLine(success, total, percentage)}</span>
      {pending > 0 || run.isRunning ? (
        <Button size="sm" variant="secondary" disabled={run.isRunning} onClick={() => void run.run({ count: geocodingLimits.mapBatchSize })}>
          {run.isRunning && batch ? `Geocoding ${batch.processed}/${batch.total}...` : geocodingMessages.geocodeAddresses(count)}
        </Button>
      ) : null}
      <span role="status" className="text-slate-600">
        {run.isStartedHere && batch && batch.status !== 'running' ? batchSummary(batch) : ''}
      </span>
      {run.error ? <span role="alert" className="text-red-800">{run.error}</span> : null}
    </div>
  );
}

/**
 * Pin mode (?pin=<customer id>): staff click the map where a customer whose address could not be
 * geocoded really is; the spot is saved through PUT /api/admin/customers/:id/location.
 */
export function usePinMode(customerId: string | undefined, onDone: () => void) {
  const profile = useCustomerProfile(customerId ?? '', { enabled: Boolean(customerId) });
  const save = useSetCustomerLocation();
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string }>();
  const customer = profile.data?.customer;

  function pick(at: { latitude: number; longitude: number }) {
    if (!customerId || save.isPending) return;
    if (!isInsideSouthCarolina(at.latitude, at.longitude)) {
      setMessage({ tone: 'error', text: geocodingMessages.manualPinOutside });
      return;
    }
    setMessage(undefined);
    save.mutate(
      { customerId, latitude: at.latitude, longitude: at.longitude },
      {
        onSuccess: () => {
          setMessage({ tone: 'success', text: `${geocodingMessages.manualPinSaved}: ${customer?.name ?? 'customer'}` });
          onDone();
        },
        onError: (error) => setMessage({ tone: 'error', text: geocodingErrorMessage(error) }),
      },
    );
  }

  const banner = (
    <div aria-live="polite" className="space-y-2">
      {customerId ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-brand-900">
          <p>
            <span className="font-semibold">Place pin: </span>
            {customer ? `click the map where ${customer.name} (${[customer.address, customer.city].filter(Boolean).join(', ')}) is.` : 'Loading customer...'}
            {save.isPending ? ' Saving...' : ''}
          </p>
          <Button size="sm" variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        </div>
      ) : null}
      {message && (customerId || message.tone === 'success') ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </div>
  );
  return { banner, pick: customerId ? pick : undefined };
}
