import { describe, expect, it } from 'vitest';
import type { MapCustomer, MapProperty } from '#shared/map.ts';
import { activeFilterCount, customerFiltersQuery, readMapUrl, withMapFilter, withMapView, workOrderFiltersQuery } from '#client/features/map/map-filters.ts';
import { customerPoint, featureKey, featuresOf, propertyPoint } from '#client/features/map/map-points.ts';
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
  isMember: false,
  ...overrides,
});

const customer = (id: string, latitude: number, longitude: number, overrides: Partial<MapCustomer> = {}): MapCustomer => ({
  id,
  name: `Customer ${id}`,
  type: 'residential',
  latitude,
  longitude,
  totalWorkOrders: 0,
  isMember: false,
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
    // A maintenance plan member (issue 22): the marker wears a star and its name says so.
    expect(customerPoint(customer('c3', 32, -80, { isMember: true }))).toMatchObject({ isMember: true, label: 'Customer c3: no active work orders, plan member' });
    expect(propertyPoint(property({ isMember: true, activeWorkOrders: 1 }))).toMatchObject({ isMember: true, label: '12 May River Rd, Bluffton: 1 active work order, plan member' });
    expect(featureKey({ kind: 'point', point: customerPoint(customer('c3', 32, -80, { isMember: true })) })).not.toBe(featureKey({ kind: 'point', point: customerPoint(customer('c3', 32, -80)) }));
  });

  it("draws the server's clusters and single markers; a stacked cluster carries its points", () => {
    const answer = {
      clusters: [
        { id: 7, latitude: 32.2, longitude: -80.9, count: 120, expansionZoom: 9 },
        { id: 8, latitude: 32.1, longitude: -80.8, count: 2, expansionZoom: 18, stacked: [customer('a', 32.1, -80.8), customer('b', 32.1, -80.8, { activeWorkOrders: 1 })] },
      ],
    };
    const features = featuresOf(answer, [customer('c', 32.3, -80.7)], customerPoint);
    expect(features.map((feature) => feature.kind)).toEqual(['cluster', 'cluster', 'point']);
    const [plain, stacked] = features;
    expect(plain?.kind === 'cluster' && plain.stacked).toBeUndefined();
    expect(stacked?.kind === 'cluster' && stacked.stacked?.map((point) => point.label)).toEqual(['Customer a: no active work orders', 'Customer b: 1 active work order']);
  });

  it('keeps a marker while its look and name are the same, and replaces it when they change', () => {
    const point = (overrides: Partial<MapCustomer>) => ({ kind: 'point' as const, point: customerPoint(customer('a', 32.1, -80.8, overrides)) });
    expect(featureKey(point({}))).toBe(featureKey(point({ totalWorkOrders: 9 })));
    expect(featureKey(point({}))).not.toBe(featureKey(point({ activeWorkOrders: 1 })));
    const cluster = { kind: 'cluster' as const, id: 7, latitude: 32.2, longitude: -80.9, count: 120, expansionZoom: 9 };
    expect(featureKey(cluster)).toBe(featureKey({ ...cluster }));
    expect(featureKey(cluster)).not.toBe(featureKey({ ...cluster, count: 121 }));
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
