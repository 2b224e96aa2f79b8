import {
  mapCustomerFiltersSchema,
  mapCustomerTypeFilters,
  mapDateRanges,
  mapPriorityFilters,
  mapServiceTypeFilters,
  mapStatusFilters,
  mapViewModes,
  mapWorkOrderFiltersSchema,
  type MapCustomerFilters,
  type MapViewMode,
  type MapWorkOrderFilters,
} from '#shared/map.ts';

// The map's view and filters live in the address (?view=customers&status=pending...), so a reload,
// back and forward or a shared link shows the same map. Defaults are left out of the address.

export type MapUrlState = { view: MapViewMode; workOrders: MapWorkOrderFilters; customers: MapCustomerFilters; pinCustomerId: string | undefined };

const defaultWorkOrderFilters = mapWorkOrderFiltersSchema.parse({});
const defaultCustomerFilters = mapCustomerFiltersSchema.parse({});

function pick<const Options extends readonly string[]>(options: Options, value: string | null, fallback: Options[number]): Options[number] {
  return value !== null && (options as readonly string[]).includes(value) ? (value as Options[number]) : fallback;
}

const flag = (value: string | null, fallback: boolean) => (value === 'true' ? true : value === 'false' ? false : fallback);

/** Reads the view and both views' filters; anything unknown falls back to the default. */
export function readMapUrl(params: URLSearchParams): MapUrlState {
  return {
    view: pick(mapViewModes, params.get('view'), 'workOrders'),
    workOrders: {
      activeOnly: flag(params.get('activeOnly'), defaultWorkOrderFilters.activeOnly),
      status: pick(mapStatusFilters, params.get('status'), 'all'),
      priority: pick(mapPriorityFilters, params.get('priority'), 'all'),
      dateRange: pick(mapDateRanges, params.get('dateRange'), 'all'),
      serviceType: pick(mapServiceTypeFilters, params.get('serviceType'), 'all'),
    },
    customers: {
      type: pick(mapCustomerTypeFilters, params.get('type'), 'all'),
      hasActiveWorkOrders: flag(params.get('hasActiveWorkOrders'), defaultCustomerFilters.hasActiveWorkOrders),
    },
    pinCustomerId: params.get('pin') || undefined,
  };
}

type FilterName = keyof MapWorkOrderFilters | keyof MapCustomerFilters;

/** The same address with one filter changed (a default value is removed from it). */
export function withMapFilter(current: URLSearchParams, name: FilterName, value: string | boolean): URLSearchParams {
  const params = new URLSearchParams(current);
  const defaults: Record<FilterName, string | boolean> = { ...defaultWorkOrderFilters, ...defaultCustomerFilters };
  if (value === defaults[name]) params.delete(name);
  else params.set(name, String(value));
  return params;
}

/** The same address in another view (each view's filters are kept for when staff come back). */
export function withMapView(current: URLSearchParams, view: MapViewMode): URLSearchParams {
  const params = new URLSearchParams(current);
  if (view === 'workOrders') params.delete('view');
  else params.set('view', view);
  return params;
}

/** The query string of a view's data request (every filter, defaults included: one cache key per answer). */
export function workOrderFiltersQuery(filters: MapWorkOrderFilters): string {
  return new URLSearchParams({
    activeOnly: String(filters.activeOnly),
    status: filters.status,
    priority: filters.priority,
    dateRange: filters.dateRange,
    serviceType: filters.serviceType,
  }).toString();
}

export function customerFiltersQuery(filters: MapCustomerFilters): string {
  return new URLSearchParams({ type: filters.type, hasActiveWorkOrders: String(filters.hasActiveWorkOrders) }).toString();
}

/** Whether a work-order filter other than the defaults is set (the phone's collapsed filters say so). */
export function activeFilterCount(state: MapUrlState): number {
  if (state.view === 'customers') {
    return Number(state.customers.type !== 'all') + Number(state.customers.hasActiveWorkOrders !== defaultCustomerFilters.hasActiveWorkOrders);
  }
  const filters = state.workOrders;
  return (
    Number(filters.activeOnly !== defaultWorkOrderFilters.activeOnly) +
    Number(filters.status !== 'all') +
    Number(filters.priority !== 'all') +
    Number(filters.dateRange !== 'all') +
    Number(filters.serviceType !== 'all')
  );
}
