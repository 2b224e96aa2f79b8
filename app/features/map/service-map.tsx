import { useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { geocodingLimits, geocodingMessages, isInsideSouthCarolina } from '#shared/geocoding.ts';
import {
  mapCustomerTypeFilters,
  mapDateRanges,
  mapMessages,
  mapPriorityFilters,
  mapServiceTypeFilters,
  mapStatusFilters,
  markerSize,
  type MapCustomer,
  type MapCustomersResponse,
  type MapPropertiesResponse,
  type MapProperty,
  type MapViewMode,
} from '#shared/map.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { useCustomerProfile } from '#client/features/customers/api.ts';
import { batchSummary, geocodingErrorMessage, useGeocodingStats } from '#client/features/geocoding/api.ts';
import { useBatchRun } from '#client/features/geocoding/use-batch-run.ts';
import { useMapCustomers, useMapProperties, useMapTileConfig, useSetCustomerLocation } from './api.ts';
import { MapCanvas, type MapPopup } from './map-canvas.tsx';
import { CustomerPopup, CustomerSidebar, PropertyPopup, PropertySidebar } from './map-details.tsx';
import { activeFilterCount, readMapUrl, withMapFilter, withMapView } from './map-filters.ts';
import { customerPoint, markerFills, propertyPoint, type MapPoint } from './map-points.ts';

type Selection = { kind: 'property'; item: MapProperty } | { kind: 'customer'; item: MapCustomer };
type Stacked = { points: MapPoint[]; total: number; latitude: number; longitude: number };

const optionLabel = (value: string) => (value === 'all' ? 'All' : value.replace(/-/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()));
const dateRangeLabels: Record<(typeof mapDateRanges)[number], string> = { all: 'All dates', today: 'Today', week: 'This week', month: 'This month' };

/**
 * The Service Map (spec 001 sections 2-4, issue 9): Work Orders View (properties) or Customers
 * View, with the view and filters kept in the address, the header counts and geocoding stats,
 * clustered markers with popups, the details sidebar, and pin mode (?pin=<customer id>) for placing
 * a customer by hand. A failed load shows an error with a retry, never invented data.
 */
export function ServiceMap() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = readMapUrl(searchParams);
  const { view } = state;
  const properties = useMapProperties(state.workOrders, view === 'workOrders');
  const customers = useMapCustomers(state.customers, view === 'customers');
  const active = view === 'workOrders' ? properties : customers;
  const tiles = useMapTileConfig();
  const [tilesFailed, setTilesFailed] = useState(false);
  const [popup, setPopup] = useState<Selection | Stacked>();
  const [sidebar, setSidebar] = useState<Selection>();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const pinMode = usePinMode(state.pinCustomerId, () => setSearchParams((current) => withoutPin(current), { replace: true, preventScrollReset: true }));

  const propertyList = view === 'workOrders' ? properties.data?.properties : undefined;
  const customerList = view === 'customers' ? customers.data?.customers : undefined;
  const { points, byId } = useMemo(() => {
    const items = new Map<string, Selection>();
    if (propertyList) {
      for (const item of propertyList) items.set(item.id, { kind: 'property', item });
      return { points: propertyList.map(propertyPoint), byId: items };
    }
    for (const item of customerList ?? []) items.set(item.id, { kind: 'customer', item });
    return { points: (customerList ?? []).map(customerPoint), byId: items };
  }, [propertyList, customerList]);

  // The map fits once per view and filters, when their own answer (not the previous one) is in.
  const filtersKey = JSON.stringify(view === 'workOrders' ? state.workOrders : state.customers);
  const fitKey = active.isSuccess && !active.isPlaceholderData ? `${view}:${filtersKey}` : undefined;

  function changeView(next: MapViewMode) {
    if (next === view) return;
    // Spec: switching the view clears the selected item and closes the sidebar.
    setPopup(undefined);
    setSidebar(undefined);
    setSearchParams((current) => withMapView(current, next), { replace: true, preventScrollReset: true });
  }

  function changeFilter(name: Parameters<typeof withMapFilter>[1], value: string | boolean) {
    setPopup(undefined);
    setSearchParams((current) => withMapFilter(current, name, value), { replace: true, preventScrollReset: true });
  }

  function selectPoint(point: MapPoint) {
    const selection = byId.get(point.id);
    if (selection) setPopup(selection);
  }

  const popupForMap = useMemo<MapPopup | undefined>(() => {
    if (!popup) return undefined;
    if ('points' in popup) {
      return { key: `stack:${popup.latitude}:${popup.longitude}`, latitude: popup.latitude, longitude: popup.longitude, content: <StackedList stacked={popup} onPick={selectPoint} /> };
    }
    const { item } = popup;
    return {
      key: `${popup.kind}:${item.id}`,
      latitude: item.latitude,
      longitude: item.longitude,
      content:
        popup.kind === 'property' ? (
          <PropertyPopup property={popup.item} onViewDetails={() => setSidebar(popup)} />
        ) : (
          <CustomerPopup customer={popup.item} onViewDetails={() => setSidebar(popup)} />
        ),
    };
    // selectPoint reads byId, which changes with the data.
  }, [popup, byId]); // eslint-disable-line react-hooks/exhaustive-deps

  // The sidebar shows the item's current copy while the answer still has it (live updates refetch).
  const sidebarSelection = sidebar && byId.get(sidebar.item.id)?.kind === sidebar.kind ? (byId.get(sidebar.item.id) as Selection) : sidebar;

  const header = headerText(view === 'workOrders' ? properties.data : undefined, view === 'customers' ? customers.data : undefined);
  const isLoading = active.isPending || active.isPlaceholderData;

  return (
    <section aria-labelledby="map-title" className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 id="map-title" className="text-2xl font-bold text-slate-900">
            {mapMessages.title}
          </h1>
          <p role="status" className="min-h-5 text-sm font-medium text-slate-700" data-testid="map-header-count">
            {header}
          </p>
          <GeocodingHeader />
        </div>
        <Link to="/admin/workorders/new" className={buttonClass('accent')}>
          {mapMessages.newWorkOrder}
        </Link>
      </div>

      <div role="group" aria-label="Map view" className="inline-flex rounded-md border border-slate-300 bg-white p-1 shadow-sm">
        {(['workOrders', 'customers'] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            aria-pressed={view === mode}
            onClick={() => changeView(mode)}
            className={`min-h-9 rounded px-3 text-sm font-semibold ${view === mode ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
          >
            {mode === 'workOrders' ? mapMessages.workOrdersView : mapMessages.customersView}
          </button>
        ))}
      </div>

      <div className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
        <button
          type="button"
          className="flex min-h-9 w-full items-center justify-between text-sm font-semibold text-slate-800 sm:hidden"
          aria-expanded={filtersOpen}
          aria-controls="map-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          <span>
            Filters{activeFilterCount(state) > 0 ? ` (${activeFilterCount(state)})` : ''}
          </span>
          <span aria-hidden="true">{filtersOpen ? '▲' : '▼'}</span>
        </button>
        <div id="map-filters" className={`${filtersOpen ? 'mt-3 grid' : 'hidden'} gap-3 sm:mt-0 sm:flex sm:flex-wrap sm:items-end`}>
          {view === 'workOrders' ? (
            <>
              <Toggle label={mapMessages.activeOnly} checked={state.workOrders.activeOnly} onChange={(value) => changeFilter('activeOnly', value)} />
              <Select label="Status" value={state.workOrders.status} options={mapStatusFilters} onChange={(value) => changeFilter('status', value)} />
              <Select label="Priority" value={state.workOrders.priority} options={mapPriorityFilters} onChange={(value) => changeFilter('priority', value)} />
              <Select
                label="Date Range"
                value={state.workOrders.dateRange}
                options={mapDateRanges}
                labels={dateRangeLabels}
                onChange={(value) => changeFilter('dateRange', value)}
              />
              <Select label="Service Type" value={state.workOrders.serviceType} options={mapServiceTypeFilters} onChange={(value) => changeFilter('serviceType', value)} />
            </>
          ) : (
            <>
              <Select label="Customer Type" value={state.customers.type} options={mapCustomerTypeFilters} onChange={(value) => changeFilter('type', value)} />
              <Toggle label={mapMessages.hasActiveWorkOrders} checked={state.customers.hasActiveWorkOrders} onChange={(value) => changeFilter('hasActiveWorkOrders', value)} />
            </>
          )}
        </div>
      </div>

      <Legend view={view} />

      {pinMode.banner}

      <div className={`grid gap-4 ${sidebarSelection ? 'lg:grid-cols-[minmax(0,1fr)_22rem]' : ''}`}>
        <div className="relative h-[65vh] min-h-[360px] overflow-hidden rounded-lg border border-slate-200 shadow-sm" aria-busy={isLoading}>
          <MapCanvas
            points={points}
            fitKey={fitKey}
            tiles={tiles.data}
            popup={popupForMap}
            onPopupClosed={(key) => setPopup((current) => (current && popupKey(current) === key ? undefined : current))}
            onSelectPoint={selectPoint}
            onStackedPoints={(stacked, total, at) => setPopup({ points: stacked, total, ...at })}
            onPickLocation={pinMode.pick}
            onTileError={() => setTilesFailed(true)}
            label={view === 'workOrders' ? 'Map of properties with work orders' : 'Map of customers'}
          />
          {isLoading && !active.isError ? (
            <div className="pointer-events-none absolute inset-0 z-[1000] flex items-center justify-center bg-white/60">
              <p role="status" className="rounded-md bg-white px-4 py-2 font-medium text-slate-800 shadow">
                {view === 'workOrders' ? mapMessages.loadingProperties : mapMessages.loadingCustomers}
              </p>
            </div>
          ) : null}
          {active.isError ? (
            <div className="absolute inset-0 z-[1000] flex items-center justify-center bg-white/80 p-4">
              <div role="alert" className="max-w-sm rounded-lg border border-red-200 bg-red-50 p-5 text-center text-red-800 shadow">
                <p className="font-semibold">{mapMessages.loadFailed}</p>
                <p className="mt-1 text-sm">{geocodingErrorMessage(active.error)}</p>
                <Button className="mt-3" onClick={() => void active.refetch()} disabled={active.isFetching}>
                  {mapMessages.retry}
                </Button>
              </div>
            </div>
          ) : null}
          {tilesFailed ? (
            <p role="status" className="absolute bottom-6 left-2 z-[1000] max-w-[70%] rounded bg-white/90 px-2 py-1 text-xs text-slate-700 shadow">
              {mapMessages.tilesUnavailable}
            </p>
          ) : null}
        </div>
        {sidebarSelection ? (
          sidebarSelection.kind === 'property' ? (
            <PropertySidebar property={sidebarSelection.item} onClose={() => setSidebar(undefined)} />
          ) : (
            <CustomerSidebar customer={sidebarSelection.item} onClose={() => setSidebar(undefined)} />
          )
        ) : null}
      </div>
    </section>
  );
}

/**
 * The header describes what the map shows: the properties or customers the filters kept (and how
 * many of them have active work), beside all geocoded properties in the Work Orders View.
 */
function headerText(properties: MapPropertiesResponse | undefined, customers: MapCustomersResponse | undefined): string {
  if (properties) return mapMessages.propertiesHeader(properties.properties.filter((item) => item.activeWorkOrders > 0).length, properties.total);
  if (customers) return mapMessages.customersHeader(customers.customers.length, customers.customers.filter((item) => item.activeWorkOrders > 0).length);
  return '';
}

const popupKey = (popup: Selection | Stacked) => ('points' in popup ? `stack:${popup.latitude}:${popup.longitude}` : `${popup.kind}:${popup.item.id}`);

function withoutPin(current: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(current);
  params.delete('pin');
  return params;
}

/** Several markers on one spot (customers sharing a ZIP centroid or a building): pick one. */
function StackedList({ stacked, onPick }: { stacked: Stacked; onPick: (point: MapPoint) => void }) {
  return (
    <div className="space-y-2" data-testid="map-popup">
      <h2 className="text-base font-bold text-slate-900">{stacked.total} at this spot</h2>
      <ul className="max-h-60 space-y-1 overflow-y-auto">
        {stacked.points.map((point) => (
          <li key={point.id}>
            <button type="button" className="w-full rounded px-2 py-1 text-left text-sm text-brand-700 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-600" onClick={() => onPick(point)}>
              {point.label}
            </button>
          </li>
        ))}
      </ul>
      {stacked.total > stacked.points.length ? <p className="text-xs text-slate-600">{mapMessages.more(stacked.total - stacked.points.length)}</p> : null}
    </div>
  );
}

function Select<const Options extends readonly string[]>({
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

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (value: boolean) => void }) {
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

function Legend({ view }: { view: MapViewMode }) {
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
    </ul>
  );
}

/** The stats line and the 'Geocode {n} addresses' button (a batch of 20; the map and stats reload after). */
function GeocodingHeader() {
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
function usePinMode(customerId: string | undefined, onDone: () => void) {
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
