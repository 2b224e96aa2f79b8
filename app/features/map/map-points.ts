import Supercluster from 'supercluster';
import { customerMarkerColor, markerSize, propertyMarkerColor, type MapCustomer, type MapProperty } from '#shared/map.ts';
import { fieldStepText, type FieldStep } from '#shared/tech.ts';
import { company } from '#client/lib/company.ts';

// What the map plots, whatever the view: one point per property or customer, with its colour,
// size and accessible name, clustered by supercluster so only what is in view is drawn.

export type MarkerColor = ReturnType<typeof propertyMarkerColor> | ReturnType<typeof customerMarkerColor>;

/** The spec's colour names as fills; yellow and amber carry dark text, the others white. */
export const markerFills: Record<MarkerColor, { fill: string; text: string }> = {
  blue: { fill: '#2563eb', text: '#ffffff' },
  red: { fill: '#dc2626', text: '#ffffff' },
  amber: { fill: '#f59e0b', text: '#1f2937' },
  yellow: { fill: '#facc15', text: '#1f2937' },
  purple: { fill: '#7c3aed', text: '#ffffff' },
  grey: { fill: '#6b7280', text: '#ffffff' },
  green: { fill: '#16a34a', text: '#ffffff' },
};

export type MapPoint = {
  kind: 'property' | 'customer';
  id: string;
  latitude: number;
  longitude: number;
  color: MarkerColor;
  size: number;
  activeWorkOrders: number;
  /** Today's latest field step at a property (issue 19): the marker wears a ring. */
  fieldStep?: FieldStep;
  /** The marker's accessible name (and tooltip). */
  label: string;
};

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

export function propertyPoint(property: MapProperty): MapPoint {
  return {
    kind: 'property',
    id: property.id,
    latitude: property.latitude,
    longitude: property.longitude,
    color: propertyMarkerColor(property),
    size: markerSize(property.activeWorkOrders),
    activeWorkOrders: property.activeWorkOrders,
    ...(property.fieldStep ? { fieldStep: property.fieldStep.step } : {}),
    label: `${property.address}, ${property.city}: ${plural(property.activeWorkOrders, 'active work order')}${
      property.fieldStep ? `, technician ${fieldStepText(property.fieldStep, company.timeZone).toLowerCase()}` : ''
    }`,
  };
}

export function customerPoint(customer: MapCustomer): MapPoint {
  return {
    kind: 'customer',
    id: customer.id,
    latitude: customer.latitude,
    longitude: customer.longitude,
    color: customerMarkerColor(customer),
    size: markerSize(customer.activeWorkOrders),
    activeWorkOrders: customer.activeWorkOrders,
    label: `${customer.name}: ${customer.activeWorkOrders > 0 ? plural(customer.activeWorkOrders, 'active work order') : 'no active work orders'}`,
  };
}

/** Points closer than this many pixels join a cluster. */
export const clusterRadiusPx = 60;
/** Above this zoom nothing is clustered; points still together there share one spot. */
export const clusterMaxZoom = 17;
/** The map's own zoom limit. */
export const mapMaxZoom = 18;

export type PointIndex = Supercluster<MapPoint, Supercluster.AnyProps>;
export type IndexedFeature = Supercluster.ClusterFeature<Supercluster.AnyProps> | Supercluster.PointFeature<MapPoint>;

export function buildPointIndex(points: readonly MapPoint[]): PointIndex {
  const index = new Supercluster<MapPoint, Supercluster.AnyProps>({ radius: clusterRadiusPx, maxZoom: clusterMaxZoom });
  index.load(points.map((point) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [point.longitude, point.latitude] }, properties: point })));
  return index;
}

export function isCluster(feature: IndexedFeature): feature is Supercluster.ClusterFeature<Supercluster.AnyProps> {
  return Boolean((feature.properties as { cluster?: boolean }).cluster);
}

/** The clusters and points inside [west, south, east, north] at a zoom (longitudes kept within the world). */
export function visibleFeatures(index: PointIndex, bounds: { west: number; south: number; east: number; north: number }, zoom: number): IndexedFeature[] {
  const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
  const west = bounds.east - bounds.west >= 360 ? -180 : clamp(bounds.west, -180, 180);
  const east = bounds.east - bounds.west >= 360 ? 180 : clamp(bounds.east, -180, 180);
  return index.getClusters([west, clamp(bounds.south, -85, 85), east, clamp(bounds.north, -85, 85)], Math.round(zoom));
}

/** The marker size of a cluster: grows with its size, bounded. */
export function clusterSize(count: number): number {
  return Math.min(56, 30 + Math.round(Math.log10(Math.max(1, count)) * 9));
}

/** The south-west and north-east corners around every point, or undefined when there are none. */
export function boundsOf(points: readonly MapPoint[]): [[number, number], [number, number]] | undefined {
  if (points.length === 0) return undefined;
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const point of points) {
    if (point.latitude < south) south = point.latitude;
    if (point.latitude > north) north = point.latitude;
    if (point.longitude < west) west = point.longitude;
    if (point.longitude > east) east = point.longitude;
  }
  return [
    [south, west],
    [north, east],
  ];
}
