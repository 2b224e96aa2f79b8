import { z } from 'zod';
import { customerContactShape } from './customer.ts';
import { customerTypes, workOrderStatuses } from './enums.ts';
import { fieldSteps } from './tech.ts';
import { mapViewSchema } from './map-view.ts';

// The service map (spec 001 sections 2-4 and 9; issue 9): what the server sends for each view,
// the filters, the marker rules and the screen's exact words. The server aggregates in SQL and
// sends only plotted items (customers with coordinates); popups load their details on demand.
// Each view's request names the box the screen shows and its zoom (shared/map-view.ts): the answer
// is the clusters and single markers there, clustered on the server (decision 023-c).

export const mapViewModes = ['workOrders', 'customers'] as const;
export type MapViewMode = (typeof mapViewModes)[number];

/**
 * Spec 001 section 9: a coastal South Carolina centre (Bluffton) at zoom 12; fitting stops at 16,
 * with this padding in pixels (bench/api.ts asks for the view such a fit shows).
 */
export const mapDefaults = { center: [32.2371, -80.8604] as [number, number], zoom: 12, maxFitZoom: 16, fitPaddingPx: 32, popupWorkOrders: 3 } as const;

/** Spec 001 section 9: the map's priority ranks (it also knows 'urgent', between emergency and high). */
export const mapPriorityRanks = { emergency: 5, urgent: 4, high: 3, normal: 2, low: 1 } as const;
export type MapPriority = keyof typeof mapPriorityRanks;

export const mapStatusFilters = ['all', 'pending', 'scheduled', 'in-progress', 'completed'] as const;
export const mapPriorityFilters = ['all', 'emergency', 'urgent', 'high', 'normal', 'low'] as const;
export const mapDateRanges = ['all', 'today', 'week', 'month'] as const;
/**
 * The spec's Service Type options plus ductwork (a real service type of the work-order forms).
 * 'emergency' is not a service type of this product: it selects emergency-priority work (decision 016).
 */
export const mapServiceTypeFilters = ['all', 'repair', 'maintenance', 'installation', 'inspection', 'ductwork', 'emergency'] as const;
export const mapCustomerTypeFilters = ['all', ...customerTypes] as const;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((value) => value === true || value === 'true');

/** GET /api/admin/map/properties (query string): the Work Orders View. */
export const mapWorkOrderFiltersSchema = z.object({
  activeOnly: flag.default(true),
  status: z.enum(mapStatusFilters).default('all'),
  priority: z.enum(mapPriorityFilters).default('all'),
  dateRange: z.enum(mapDateRanges).default('all'),
  serviceType: z.enum(mapServiceTypeFilters).default('all'),
});
export type MapWorkOrderFilters = z.output<typeof mapWorkOrderFiltersSchema>;

/** GET /api/admin/map/customers (query string): the Customers View. */
export const mapCustomerFiltersSchema = z.object({
  type: z.enum(mapCustomerTypeFilters).default('all'),
  hasActiveWorkOrders: flag.default(false),
});
export type MapCustomerFilters = z.output<typeof mapCustomerFiltersSchema>;

/** The two views' requests: the filters and the view (bbox=west,south,east,north&zoom=z). */
export const mapPropertiesQuerySchema = mapWorkOrderFiltersSchema.extend(mapViewSchema.shape);
export const mapCustomersQuerySchema = mapCustomerFiltersSchema.extend(mapViewSchema.shape);

/** A technician's step with a visit (issue 19) and when it was taken. */
export const mapFieldStepSchema = z.object({ step: z.enum(fieldSteps), at: z.string().nullable() });

/**
 * One property (customers grouped by address, city and state) with coordinates and at least one
 * work order matching the filters. `id` is a stable key of the address (the first customer's id).
 */
export const mapPropertySchema = z.object({
  id: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string().nullable(),
  /** 'commercial' when any customer at the address is commercial, else 'residential'. */
  propertyType: z.enum(customerTypes),
  latitude: z.number(),
  longitude: z.number(),
  customerCount: z.number().int(),
  /** Work orders matching the filters: active ones, and each status's count. */
  activeWorkOrders: z.number().int(),
  pendingCount: z.number().int(),
  scheduledCount: z.number().int(),
  inProgressCount: z.number().int(),
  completedCount: z.number().int(),
  highestPriority: z.enum(Object.keys(mapPriorityRanks) as [MapPriority, ...MapPriority[]]).nullable(),
  /** Today's latest field step at the property (issue 19): left out when nobody is on the way, there or done today. */
  fieldStep: mapFieldStepSchema.optional(),
  /** A customer there has an active maintenance plan (issue 22): priority service, marked on the marker. */
  isMember: z.boolean(),
});
export type MapProperty = z.infer<typeof mapPropertySchema>;

/**
 * What the answer says about everything the filters keep (not only the box): how many items and
 * how many of them have active work orders (the screen's header), and the corners around all of
 * them (the map fits to all markers), null when there are none.
 */
export const mapMatchingSchema = z.object({
  count: z.number().int(),
  withActiveWorkOrders: z.number().int(),
  bounds: z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]).nullable(),
});
export type MapMatching = z.infer<typeof mapMatchingSchema>;

/**
 * A cluster in the box at the asked zoom: its size and position, and the zoom at which it splits.
 * When it cannot split (its points share one spot, expansionZoom above clusterMaxZoom) `stacked`
 * lists up to stackedListMax of its items, for the screen's "N at this spot" list.
 */
const clusterShape = {
  id: z.number().int(),
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  expansionZoom: z.number().int(),
};

export const mapPropertyClusterSchema = z.object({ ...clusterShape, stacked: z.array(mapPropertySchema).optional() });
export type MapPropertyCluster = z.infer<typeof mapPropertyClusterSchema>;

export const mapPropertiesResponseSchema = z.object({
  /** The single markers in the box. */
  properties: z.array(mapPropertySchema),
  clusters: z.array(mapPropertyClusterSchema),
  matching: mapMatchingSchema,
  /** All geocoded properties with an active work order, and all of them (filter-independent). */
  withActiveWorkOrders: z.number().int(),
  total: z.number().int(),
});
export type MapPropertiesResponse = z.infer<typeof mapPropertiesResponseSchema>;

/** One customer with coordinates (the Customers View). Popup details load on demand. */
export const mapCustomerSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(customerTypes),
  latitude: z.number(),
  longitude: z.number(),
  totalWorkOrders: z.number().int(),
  activeWorkOrders: z.number().int(),
  /** An active maintenance plan (issue 22): priority service, marked on the marker. */
  isMember: z.boolean(),
});
export type MapCustomer = z.infer<typeof mapCustomerSchema>;

export const mapCustomerClusterSchema = z.object({ ...clusterShape, stacked: z.array(mapCustomerSchema).optional() });
export type MapCustomerCluster = z.infer<typeof mapCustomerClusterSchema>;

export const mapCustomersResponseSchema = z.object({
  /** The single markers in the box. */
  customers: z.array(mapCustomerSchema),
  clusters: z.array(mapCustomerClusterSchema),
  matching: mapMatchingSchema,
  /** All geocoded customers, and those with active work orders (filter-independent). */
  total: z.number().int(),
  withActiveWorkOrders: z.number().int(),
});
export type MapCustomersResponse = z.infer<typeof mapCustomersResponseSchema>;

export const mapWorkOrderSummarySchema = z.object({
  id: z.string(),
  workOrderNumber: z.string().nullable(),
  title: z.string(),
  serviceType: z.string(),
  status: z.enum(workOrderStatuses),
  priority: z.string(),
  enRouteAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type MapWorkOrderSummary = z.infer<typeof mapWorkOrderSummarySchema>;

/** GET /api/admin/map/property?address=&city=&state=: the property popup and sidebar. */
export const mapPropertyQuerySchema = z.object({
  address: z.string().trim().min(1).max(500),
  city: z.string().trim().max(100),
  state: z.string().trim().max(50),
});
export const mapPropertyDetailsSchema = mapPropertySchema.extend({
  /** Each with `isMember`: an active maintenance plan (issue 22), priority service. */
  customers: z.array(z.object({ id: z.string(), name: z.string(), phone: z.string(), email: z.string().nullable(), type: z.enum(customerTypes), isMember: z.boolean() })),
  /** Active work orders, newest first, at most mapDefaults.popupWorkOrders. */
  activeWorkOrderDetails: z.array(mapWorkOrderSummarySchema),
  /**
   * Today's completed visits (service date today in the business's time zone, the marker's "done"
   * ring's rule), the latest done first, at most mapDefaults.popupWorkOrders: the popup's
   * "Done <time>" lines (issue 19, decision 022-a "Later").
   */
  doneTodayDetails: z.array(mapWorkOrderSummarySchema),
});
export type MapPropertyDetails = z.infer<typeof mapPropertyDetailsSchema>;

/** GET /api/admin/map/customers/:id: the customer popup and sidebar. */
export const mapCustomerDetailsSchema = mapCustomerSchema.extend(customerContactShape).extend({
  /** An active maintenance plan (issue 22): priority service. */
  isMember: z.boolean(),
});
export type MapCustomerDetails = z.infer<typeof mapCustomerDetailsSchema>;

/** GET /api/admin/map/config: the tile layer (MAP_TILE_URL, MAP_TILE_ATTRIBUTION on the server). */
export const mapConfigSchema = z.object({ tileUrl: z.string(), attribution: z.string() });
export type MapConfig = z.infer<typeof mapConfigSchema>;

export const mapMessages = {
  title: 'Service Map',
  workOrdersView: 'Work Orders View',
  customersView: 'Customers View',
  newWorkOrder: 'New Work Order',
  propertiesHeader: (n: number, total: number) => `${n} properties with active work orders (${total} total)`,
  customersHeader: (total: number, n: number) => `${total} customers (${n} with active work orders)`,
  loadingProperties: 'Loading properties...',
  loadingCustomers: 'Loading customers...',
  loadFailed: 'Could not load the map data.',
  retry: 'Try again',
  activeOnly: 'Active Only',
  hasActiveWorkOrders: 'Has Active Work Orders',
  noActiveWorkOrders: 'No Active Work Orders',
  /** The popup's list of today's completed visits (issue 19). */
  doneToday: 'Done today',
  more: (n: number) => `+${n} more...`,
  viewDetails: 'View Details',
  viewCustomer: 'View Customer',
  propertyDetails: 'Property Details',
  customerDetails: 'Customer Details',
  createWorkOrder: 'Create Work Order',
  openInGoogleMaps: 'Open in Google Maps',
  tilesUnavailable: 'Map tiles could not be loaded; markers are still shown.',
} as const;

/** Spec 001 section 4: marker colour, Work Orders View. */
export function propertyMarkerColor(property: Pick<MapProperty, 'inProgressCount' | 'highestPriority' | 'pendingCount' | 'scheduledCount'>) {
  if (property.inProgressCount > 0) return 'blue';
  if (property.highestPriority === 'emergency') return 'red';
  if (property.highestPriority === 'urgent') return 'amber';
  if (property.pendingCount > 0) return 'yellow';
  if (property.scheduledCount > 0) return 'purple';
  return 'grey';
}

/** Spec 001 section 4: marker colour, Customers View. */
export function customerMarkerColor(customer: Pick<MapCustomer, 'type' | 'activeWorkOrders'>) {
  if (customer.type === 'commercial') return customer.activeWorkOrders > 0 ? 'red' : 'amber';
  return customer.activeWorkOrders > 0 ? 'blue' : 'green';
}

/** Spec 001 section 4: marker size grows with the active count, within bounds (pixels). */
export function markerSize(activeWorkOrders: number): number {
  return Math.min(40, 24 + 4 * Math.max(0, activeWorkOrders));
}

/** 'Open in Google Maps': a maps search for the address, in a new tab. */
export function googleMapsSearchUrl(address: { address: string; city: string; state: string; zip?: string | null }): string {
  const query = [address.address, address.city, address.state, address.zip].filter(Boolean).join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}
