import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  mapCustomerTypeFilters,
  mapDateRanges,
  mapMessages,
  mapPriorityFilters,
  mapServiceTypeFilters,
  mapStatusFilters,
  type MapCustomer,
  type MapMatching,
  type MapProperty,
  type MapViewMode,
} from '#shared/map.ts';
import type { MapView } from '#shared/map-view.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { geocodingErrorMessage } from '#client/features/geocoding/index.ts';
import { useMapCustomers, useMapProperties, useMapTileConfig } from './api.ts';
import { MapCanvas, type MapPopup } from './map-canvas.tsx';
import { CustomerPopup, CustomerSidebar, PropertyPopup, PropertySidebar } from './map-details.tsx';
import { activeFilterCount, readMapUrl, withMapFilter, withMapView } from './map-filters.ts';
import { customerPoint, featuresOf, propertyPoint, type MapPoint } from './map-points.ts';
import { GeocodingHeader, Legend, Select, StackedList, Toggle, usePinMode, type Stacked } from './map-controls.tsx';

type Selection = { kind: 'property'; item: MapProperty } | { kind: 'customer'; item: MapCustomer };

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
  // The box and zoom the map shows (reported by the map after each move): what is asked for.
  const [mapView, setMapView] = useState<MapView>();
  const properties = useMapProperties(state.workOrders, mapView, view === 'workOrders');
  const customers = useMapCustomers(state.customers, mapView, view === 'customers');
  const active = view === 'workOrders' ? properties : customers;
  const tiles = useMapTileConfig();
  const [tilesFailed, setTilesFailed] = useState(false);
  const [popup, setPopup] = useState<Selection | Stacked>();
  const [sidebar, setSidebar] = useState<Selection>();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const pinMode = usePinMode(state.pinCustomerId, () => setSearchParams((current) => withoutPin(current), { replace: true, preventScrollReset: true }));

  const propertyAnswer = view === 'workOrders' ? properties.data : undefined;
  const customerAnswer = view === 'customers' ? customers.data : undefined;
  const { features, byId } = useMemo(() => {
    const items = new Map<string, Selection>();
    if (propertyAnswer) {
      for (const item of [...propertyAnswer.properties, ...propertyAnswer.clusters.flatMap((cluster) => cluster.stacked ?? [])]) items.set(item.id, { kind: 'property', item });
      return { features: featuresOf(propertyAnswer, propertyAnswer.properties, propertyPoint), byId: items };
    }
    if (customerAnswer) {
      for (const item of [...customerAnswer.customers, ...customerAnswer.clusters.flatMap((cluster) => cluster.stacked ?? [])]) items.set(item.id, { kind: 'customer', item });
      return { features: featuresOf(customerAnswer, customerAnswer.customers, customerPoint), byId: items };
    }
    return { features: [], byId: items };
  }, [propertyAnswer, customerAnswer]);

  // The map fits once per view and filters, when their own answer (not the previous one) is in;
  // pans and zooms ask again with the same filters and fit nothing.
  const filtersKey = JSON.stringify(view === 'workOrders' ? state.workOrders : state.customers);
  const answer = propertyAnswer ?? customerAnswer;
  const hasOwnAnswer = answer !== undefined && answer.forFilters === filtersKey;
  const fit = hasOwnAnswer ? { key: `${view}:${filtersKey}`, bounds: answer.matching.bounds } : undefined;

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

  // The popup's content depends on the selection only (a live refetch must not redraw it): its
  // stacked list picks from the newest answer through this ref.
  const latestById = useRef(byId);
  useEffect(() => {
    latestById.current = byId;
  }, [byId]);
  const selectPoint = useCallback((point: MapPoint) => {
    const selection = latestById.current.get(point.id);
    if (selection) setPopup(selection);
  }, [setPopup]);

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
  }, [popup, selectPoint, setSidebar]);

  // The sidebar shows the item's current copy while the answer still has it (live updates refetch).
  const sidebarSelection = sidebar && byId.get(sidebar.item.id)?.kind === sidebar.kind ? (byId.get(sidebar.item.id) as Selection) : sidebar;

  const header = headerText(view, propertyAnswer ?? customerAnswer);
  // The overlay is for a view or filter set's first answer only (spec): pans keep the markers shown.
  const isLoading = !hasOwnAnswer;

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
            features={features}
            fit={fit}
            onViewChange={setMapView}
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
function headerText(view: MapViewMode, answer: { matching: MapMatching; total: number } | undefined): string {
  if (!answer) return '';
  if (view === 'workOrders') return mapMessages.propertiesHeader(answer.matching.withActiveWorkOrders, answer.total);
  return mapMessages.customersHeader(answer.matching.count, answer.matching.withActiveWorkOrders);
}

const popupKey = (popup: Selection | Stacked) => ('points' in popup ? `stack:${popup.latitude}:${popup.longitude}` : `${popup.kind}:${popup.item.id}`);

function withoutPin(current: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(current);
  params.delete('pin');
  return params;
}
