import { describe, expect, it } from 'vitest';
import type { MapCustomer, MapProperty } from '#shared/map.ts';
import { activeFilterCount, customerFiltersQuery, readMapUrl, withMapFilter, withMapView, workOrderFiltersQuery } from '#client/features/map/map-filters.ts';
import { boundsOf, buildPointIndex, clusterMaxZoom, customerPoint, isCluster, propertyPoint, visibleFeatures } from '#client/features/map/map-points.ts';
import { newWorkOrderHref } from '#client/features/map/map-details.tsx';

// The service map's pure parts: the view and filters kept in the address, the points it plots and
// their clustering (only what is in view), and the new work order link of a popup.

const property = (overrides: Partial<MapProperty> = {}): MapProperty => ({
  id: 'p1',
  address: '12 May River Rd',
  city: 'Bluffton',
  state: 'SC',
  zip: '29910',
  propertyType: 'residential',
  latitude: 32.23,
  longitude: -80.86,
  customerCount: 1,
  activeWorkOrders: 2,
  pendingCount: 1,
  scheduledCount: 1,
  inProgressCount: 0,
  completedCount: 0,
  highestPriority: 'normal',
  ...overrides,
});

const customer = (id: string, latitude: number, longitude: number, overrides: Partial<MapCustomer> = {}): MapCustomer => ({
  id,
  name: `Customer ${id}`,
  type: 'residential',
  latitude,
  longitude,
  totalWorkOrders: 0,
  activeWorkOrders: 0,
  ...overrides,
});

describe('map address state', () => {
  it('reads the defaults from an empty address: Work Orders View, Active Only on', () => {
    const state = readMapUrl(new URLSearchParams());
    expect(state.view).toBe('workOrders');
    expect(state.workOrders).toEqual({ activeOnly: true, status: 'all', priority: 'all', dateRange: 'all', serviceType: 'all' });
    expect(state.customers).toEqual({ type: 'all', hasActiveWorkOrders: false });
    expect(state.pinCustomerId).toBeUndefined();
    expect(activeFilterCount(state)).toBe(0);
  });

  it('ignores unknown values and keeps the known ones', () => {
    const state = readMapUrl(new URLSearchParams('view=customers&type=commercial&hasActiveWorkOrders=true&status=bogus&priority=urgent&pin=abc'));
    expect(state.view).toBe('customers');
    expect(state.customers).toEqual({ type: 'commercial', hasActiveWorkOrders: true });
    expect(state.workOrders.status).toBe('all');
    expect(state.workOrders.priority).toBe('urgent');
    expect(state.pinCustomerId).toBe('abc');
    expect(activeFilterCount(state)).toBe(2);
  });

  it('leaves defaults out of the address and keeps the other view\'s filters', () => {
    let params = withMapFilter(new URLSearchParams(), 'activeOnly', false);
    expect(params.toString()).toBe('activeOnly=false');
    params = withMapFilter(params, 'activeOnly', true);
    expect(params.toString()).toBe('');
    params = withMapFilter(params, 'status', 'pending');
    params = withMapView(params, 'customers');
    expect(params.get('view')).toBe('customers');
    expect(params.get('status')).toBe('pending');
    expect(withMapView(params, 'workOrders').has('view')).toBe(false);
  });

  it('asks the server with every filter spelled out', () => {
    const state = readMapUrl(new URLSearchParams('serviceType=emergency'));
    expect(workOrderFiltersQuery(state.workOrders)).toBe('activeOnly=true&status=all&priority=all&dateRange=all&serviceType=emergency');
    expect(customerFiltersQuery(state.customers)).toBe('type=all&hasActiveWorkOrders=false');
  });
});

describe('map points', () => {
  it('colours and sizes markers by the spec\'s rules and names them for screen readers', () => {
    const point = propertyPoint(property({ inProgressCount: 1, activeWorkOrders: 3 }));
    expect(point).toMatchObject({ kind: 'property', color: 'blue', size: 36, label: '12 May River Rd, Bluffton: 3 active work orders' });
    expect(propertyPoint(property({ highestPriority: 'emergency' })).color).toBe('red');
    expect(customerPoint(customer('c1', 32, -80, { type: 'commercial' }))).toMatchObject({ color: 'amber', size: 24, label: 'Customer c1: no active work orders' });
    expect(customerPoint(customer('c2', 32, -80, { activeWorkOrders: 1 })).label).toBe('Customer c2: 1 active work order');
  });

  it('clusters 20,000 customers and returns only what is in view', () => {
    const points = Array.from({ length: 20_000 }, (_, index) => customerPoint(customer(`c${index}`, 32 + (index % 200) / 100, -81 + Math.floor(index / 200) / 100)));
    const index = buildPointIndex(points);
    const overview = visibleFeatures(index, { west: -84, south: 31, east: -78, north: 36 }, 7);
    expect(overview.length).toBeLessThan(200);
    const clustered = overview.filter(isCluster).reduce((sum, feature) => sum + (feature.properties as { point_count: number }).point_count, 0);
    expect(clustered + overview.filter((feature) => !isCluster(feature)).length).toBe(20_000);
    // Close in, past the clustering zoom: single points, and only those inside the bounds.
    const close = visibleFeatures(index, { west: -81.005, south: 31.995, east: -80.985, north: 32.015 }, clusterMaxZoom + 1);
    expect(close.every((feature) => !isCluster(feature))).toBe(true);
    expect(close.length).toBe(4);
  });

  it('bounds every point, or nothing for no points', () => {
    expect(boundsOf([])).toBeUndefined();
    expect(boundsOf([customerPoint(customer('a', 32.1, -80.9)), customerPoint(customer('b', 33.5, -79.2))])).toEqual([
      [32.1, -80.9],
      [33.5, -79.2],
    ]);
  });
});

describe('new work order links', () => {
  it('carries the customer when there is one, and the address either way', () => {
    const href = newWorkOrderHref({ address: '12 May River Rd', city: 'Bluffton', state: 'SC', zip: '29910' }, 'c-1');
    const params = new URL(href, 'http://localhost').searchParams;
    expect(href.startsWith('/admin/workorders/new?')).toBe(true);
    expect(Object.fromEntries(params)).toEqual({ customer: 'c-1', address: '12 May River Rd', city: 'Bluffton', state: 'SC', zip: '29910' });
    expect(new URL(newWorkOrderHref({ address: '1 Main', city: '', state: '' }), 'http://localhost').searchParams.has('customer')).toBe(false);
  });
});
