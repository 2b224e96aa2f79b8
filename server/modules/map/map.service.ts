import { customerMessages } from '#shared/customer.ts';
import type { CustomerType, WorkOrderStatus } from '#shared/enums.ts';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import {
  mapDefaults,
  type MapConfig,
  type MapCustomerDetails,
  type MapCustomerFilters,
  type MapPropertyDetails,
  type MapWorkOrderFilters,
  type MapWorkOrderSummary,
} from '#shared/map.ts';
import type { MapView } from '#shared/map-view.ts';
import type { Database } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { AppError } from '#server/errors.ts';
import { compressedJson, type CompressedJson } from '#server/lib/compressed-json.ts';
import { markerSetLimits } from './map-cluster-protocol.ts';
import { createClusterThread, MarkerSetGoneError } from './map-cluster-thread.ts';
import { createMapRepository, type MapDateWindow, type MarkerRows, type WorkOrderSummaryRow } from './map.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

/** A timestamptz as the raw query returns it (a Date, or text on some drivers) as ISO text. */
const instantText = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */

export const mapNotFoundMessages = {
  property: 'No mapped customer at this address',
  customer: customerMessages.notFoundTitle,
} as const;

/**
 * The service dates a Date Range filter covers, in the company's time zone (decision 016-c):
 * today; week = the next 7 days from today (today and the 6 after it: the work ahead); month =
 * this calendar month.
 */
export function mapDateWindow(dateRange: MapWorkOrderFilters['dateRange'], today: string): MapDateWindow {
  switch (dateRange) {
    case 'today':
      return { from: today, until: addDays(today, 1) };
    case 'week':
      return { from: today, until: addDays(today, 7) };
    case 'month':
      return { from: monthStart(today), until: monthStart(today, 1) };
    default:
      return undefined;
  }
}

function toSummary(row: WorkOrderSummaryRow): MapWorkOrderSummary {
  return {
    id: row.id,
    workOrderNumber: row.work_order_number,
    title: row.title,
    serviceType: row.service_type,
    status: row.status as WorkOrderStatus,
    priority: row.priority,
    enRouteAt: instantText(row.en_route_at),
    startedAt: instantText(row.started_at),
    completedAt: instantText(row.completed_at),
  };
}

export function createMapService(options: { db: Database; timeZone: string; tiles: { url: string; attribution: string }; now?: () => Date }) {
  const { timeZone, now = () => new Date() } = options;
  const repository = createMapRepository(options.db);
  const config: MapConfig = { tileUrl: options.tiles.url, attribution: options.tiles.attribution };

  /**
   * Each view's plotted items, per database snapshot (server/db/snapshot-cache.ts) and filter set
   * (and the day, for date ranges and field steps): the database reads them in one statement
   * (decision 016-c); the clustering thread parses and indexes them once (decision 023-c) and keeps
   * them until these caches, which hold the sets' handles, let them go: a commit or an older set
   * past the limit releases the set there (decision 024-b). The key carries the thread's
   * generation: a restarted thread is asked to load its sets again.
   */
  const clusters = createClusterThread();
  const release = (set: Promise<number>) => void set.then((id) => clusters.release(id)).catch(() => undefined);
  const propertySets = createSnapshotCache<number>(options.db, { maxEntries: markerSetLimits.properties, onDrop: release });
  const customerSets = createSnapshotCache<number>(options.db, { maxEntries: markerSetLimits.customers, onDrop: release });
  /**
   * A view of the filter set's markers. A commit between finding the set and asking the thread
   * may have released it: then the view is taken from the set of the newer snapshot (an answer
   * of a later snapshot, as the caches allow), once.
   */
  async function clusteredView(sets: typeof propertySets, key: string, kind: 'properties' | 'customers', read: () => Promise<MarkerRows>, view: MapView) {
    const viewOf = async () => clusters.view(await sets.get(`${clusters.generation}|${key}`, async () => clusters.load(kind, await read())), view);
    try {
      return await viewOf();
    } catch (error) {
      if (error instanceof MarkerSetGoneError) return viewOf();
      throw error;
    }
  }
  /**
   * The answers for one view (filter set, zoom, box): JSON bytes and their gzip copy, a few
   * kilobytes each; many staff on the same fitted view share one. A read while nothing committed
   * costs one trivial query.
   */
  const propertyAnswers = createSnapshotCache<CompressedJson>(options.db, { maxEntries: 64 });
  const customerAnswers = createSnapshotCache<CompressedJson>(options.db, { maxEntries: 64 });
  const viewKey = (view: MapView) => `${view.zoom}|${view.bbox.join(',')}`;

  return {
    config: (): MapConfig => config,

    /** Stops the clustering thread (the server's close). */
    close: () => clusters.close(),

    /** The Work Orders View in a box at a zoom: MapPropertiesResponse as JSON bytes. */
    async properties(filters: MapWorkOrderFilters, view: MapView): Promise<CompressedJson> {
      // Today: for a date range, and for the field steps (issue 19), which are today's.
      const today = todayIn(timeZone, now());
      const window = filters.dateRange === 'all' ? undefined : mapDateWindow(filters.dateRange, today);
      // Active Only matters only with 'all' statuses.
      const statuses = filters.status === 'all' ? (filters.activeOnly ? 'active' : 'all') : filters.status;
      const key = `${today}|${statuses}|${filters.priority}|${filters.serviceType}|${window ? `${window.from}|${window.until}` : 'all'}`;
      return propertyAnswers.get(`${key}|${viewKey(view)}`, async () => {
        return compressedJson(await clusteredView(propertySets, key, 'properties', () => repository.properties(filters, window, today), view));
      });
    },

    /** The Customers View in a box at a zoom: MapCustomersResponse as JSON bytes. */
    async customers(filters: MapCustomerFilters, view: MapView): Promise<CompressedJson> {
      const key = `${filters.type}|${filters.hasActiveWorkOrders}`;
      return customerAnswers.get(`${key}|${viewKey(view)}`, async () => {
        return compressedJson(await clusteredView(customerSets, key, 'customers', () => repository.customers(filters), view));
      });
    },

    /** The property popup and sidebar: 404 when no geocoded customer is at the address. */
    async property(place: { address: string; city: string; state: string }): Promise<MapPropertyDetails> {
      const people = await repository.customersAt(place);
      const first = people[0];
      if (!first) throw new AppError('NOT_FOUND', mapNotFoundMessages.property);
      const ids = people.map((person) => person.id);
      const today = todayIn(timeZone, now());
      const [counts, active, doneToday] = await Promise.all([
        repository.workOrderCounts(ids),
        repository.activeWorkOrders(ids, mapDefaults.popupWorkOrders),
        repository.doneToday(ids, today, mapDefaults.popupWorkOrders),
      ]);
      return {
        id: first.id,
        address: place.address,
        city: place.city,
        state: place.state,
        zip: first.zip,
        propertyType: people.some((person) => person.type === 'commercial') ? 'commercial' : 'residential',
        latitude: first.latitude,
        longitude: first.longitude,
        customerCount: people.length,
        activeWorkOrders: counts.active,
        pendingCount: counts.pending,
        scheduledCount: counts.scheduled,
        inProgressCount: counts.in_progress,
        completedCount: counts.completed,
        highestPriority: counts.highest_priority,
        isMember: people.some((person) => person.isMember),
        customers: people.map((person) => ({ id: person.id, name: person.name, phone: person.phone, email: person.email, type: person.type as CustomerType, isMember: person.isMember })),
        activeWorkOrderDetails: active.map(toSummary),
        doneTodayDetails: doneToday.map(toSummary),
      };
    },

    /** The customer popup and sidebar: 404 for an unknown or ungeocoded customer. */
    async customer(id: string): Promise<MapCustomerDetails> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', mapNotFoundMessages.customer);
      const row = await repository.customer(id);
      if (!row) throw new AppError('NOT_FOUND', mapNotFoundMessages.customer);
      return {
        id: row.id,
        name: row.name,
        type: row.type as CustomerType,
        latitude: row.latitude,
        longitude: row.longitude,
        totalWorkOrders: row.total,
        activeWorkOrders: row.active,
        phone: row.phone,
        email: row.email,
        address: row.address,
        city: row.city,
        state: row.state,
        zip: row.zip,
        isMember: row.isMember,
      };
    },
  };
}

export type MapService = ReturnType<typeof createMapService>;
