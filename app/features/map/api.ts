import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ManualLocationInput } from '#shared/geocoding.ts';
import type {
  MapConfig,
  MapCustomerDetails,
  MapCustomerFilters,
  MapCustomersResponse,
  MapPropertiesResponse,
  MapPropertyDetails,
  MapWorkOrderFilters,
} from '#shared/map.ts';
import { mapViewQuery, type MapView } from '#shared/map-view.ts';
import { apiFetch } from '#client/lib/api.ts';
import { customerFiltersQuery, workOrderFiltersQuery } from './map-filters.ts';

/**
 * Every map query key starts with ['map']: the live updates invalidate that prefix when customers,
 * work orders or a geocoding batch change, which refetches what the map shows.
 */
export const mapKeys = {
  all: ['map'] as const,
  properties: (filters: MapWorkOrderFilters, view: MapView | undefined) => [...mapKeys.all, 'properties', filters, view] as const,
  customers: (filters: MapCustomerFilters, view: MapView | undefined) => [...mapKeys.all, 'customers', filters, view] as const,
  property: (address: { address: string; city: string; state: string }) => [...mapKeys.all, 'property', address.address, address.city, address.state] as const,
  customer: (id: string) => [...mapKeys.all, 'customer', id] as const,
  config: () => [...mapKeys.all, 'config'] as const,
};

/** The bench and the journeys read when the data arrived (performance marks, see bench/map.ts). */
export const mapPerformanceMarks = { dataReady: 'map:data-ready', markersReady: 'map:markers-ready' } as const;

function markDataReady<T>(answer: T): T {
  performance.clearMarks(mapPerformanceMarks.dataReady);
  performance.clearMarks(mapPerformanceMarks.markersReady);
  performance.mark(mapPerformanceMarks.dataReady);
  return answer;
}

/** An answer with the filters it answers (JSON of them): a kept previous answer may be another filter set's. */
export type ForFilters<Answer> = Answer & { forFilters: string };

/**
 * The Work Orders View's clusters and properties in the view (decision 023-c). While the next view
 * or filter set loads, the previous answer stays on the map (no flicker on pans).
 */
export function useMapProperties(filters: MapWorkOrderFilters, view: MapView | undefined, enabled: boolean) {
  return useQuery<ForFilters<MapPropertiesResponse>>({
    queryKey: mapKeys.properties(filters, view),
    queryFn: ({ signal }) =>
      apiFetch<MapPropertiesResponse>(`/api/admin/map/properties?${workOrderFiltersQuery(filters)}&${mapViewQuery(view!)}`, { signal }).then((answer) =>
        markDataReady({ ...answer, forFilters: JSON.stringify(filters) }),
      ),
    enabled: enabled && view !== undefined,
    placeholderData: keepPreviousData,
  });
}

export function useMapCustomers(filters: MapCustomerFilters, view: MapView | undefined, enabled: boolean) {
  return useQuery<ForFilters<MapCustomersResponse>>({
    queryKey: mapKeys.customers(filters, view),
    queryFn: ({ signal }) =>
      apiFetch<MapCustomersResponse>(`/api/admin/map/customers?${customerFiltersQuery(filters)}&${mapViewQuery(view!)}`, { signal }).then((answer) =>
        markDataReady({ ...answer, forFilters: JSON.stringify(filters) }),
      ),
    enabled: enabled && view !== undefined,
    placeholderData: keepPreviousData,
  });
}

/** A property's popup and sidebar details, loaded when it is opened. */
export function useMapPropertyDetails(address: { address: string; city: string; state: string } | undefined) {
  return useQuery({
    queryKey: mapKeys.property(address ?? { address: '', city: '', state: '' }),
    queryFn: ({ signal }) => apiFetch<MapPropertyDetails>(`/api/admin/map/property?${new URLSearchParams(address)}`, { signal }),
    enabled: Boolean(address),
  });
}

export function useMapCustomerDetails(id: string | undefined) {
  return useQuery({
    queryKey: mapKeys.customer(id ?? ''),
    queryFn: ({ signal }) => apiFetch<MapCustomerDetails>(`/api/admin/map/customers/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
  });
}

export function useMapTileConfig() {
  return useQuery({
    queryKey: mapKeys.config(),
    queryFn: ({ signal }) => apiFetch<MapConfig>('/api/admin/map/config', { signal }),
    staleTime: Infinity,
  });
}

/** Staff place a customer's pin by hand: the map, the stats and the customer screens refresh. */
export function useSetCustomerLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ customerId, ...body }: ManualLocationInput & { customerId: string }) =>
      apiFetch<unknown>(`/api/admin/customers/${encodeURIComponent(customerId)}/location`, { method: 'PUT', body }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: mapKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['geocoding'] }),
        queryClient.invalidateQueries({ queryKey: ['customers'] }),
      ]),
  });
}
