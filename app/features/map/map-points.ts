import { customerMarkerColor, markerSize, propertyMarkerColor, type MapCustomer, type MapProperty } from '#shared/map.ts';
import { fieldStepText, type FieldStep } from '#shared/tech.ts';
import { company } from '#client/lib/company.ts';

// What the map plots, whatever the view: one point per property or customer, with its colour,
// size and accessible name, and the server's clusters (only what is in view is sent and drawn).

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
  /** A maintenance plan member there (issue 22): the marker wears a star. */
  isMember: boolean;
  /** The marker's accessible name (and tooltip). */
  label: string;
};

/** What a member's marker adds to its name (the star is drawn, this is said). */
const memberLabel = 'plan member';

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
    isMember: property.isMember,
    label: `${property.address}, ${property.city}: ${plural(property.activeWorkOrders, 'active work order')}${
      property.fieldStep ? `, technician ${fieldStepText(property.fieldStep, company.timeZone).toLowerCase()}` : ''
    }${property.isMember ? `, ${memberLabel}` : ''}`,
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
    isMember: customer.isMember,
    label: `${customer.name}: ${customer.activeWorkOrders > 0 ? plural(customer.activeWorkOrders, 'active work order') : 'no active work orders'}${
      customer.isMember ? `, ${memberLabel}` : ''
    }`,
  };
}

/**
 * What the map draws for one answer (decision 023-c): the server's clusters in the asked box (a
 * stacked one carries the points sharing its spot) and its single markers.
 */
export type MapFeature =
  | { kind: 'cluster'; id: number; latitude: number; longitude: number; count: number; expansionZoom: number; stacked?: MapPoint[] }
  | { kind: 'point'; point: MapPoint };

/** A marker's identity: kept on the map while a later answer has the same one (its focus too). */
export function featureKey(feature: MapFeature): string {
  if (feature.kind === 'cluster') return `c${feature.id}:${feature.count}:${feature.latitude},${feature.longitude}`;
  const { point } = feature;
  return `p${point.kind}${point.id}:${point.latitude},${point.longitude}:${point.color}:${point.size}:${point.activeWorkOrders}:${point.fieldStep ?? ''}:${point.label}`;
}

/** An answer's clusters and single markers as what the map draws. */
export function featuresOf<Item>(
  answer: { clusters: { id: number; latitude: number; longitude: number; count: number; expansionZoom: number; stacked?: Item[] }[] },
  items: readonly Item[],
  toPoint: (item: Item) => MapPoint,
): MapFeature[] {
  return [
    ...answer.clusters.map(({ stacked, ...cluster }): MapFeature => ({ kind: 'cluster', ...cluster, ...(stacked ? { stacked: stacked.map(toPoint) } : {}) })),
    ...items.map((item): MapFeature => ({ kind: 'point', point: toPoint(item) })),
  ];
}

/** The marker size of a cluster: grows with its size, bounded. */
export function clusterSize(count: number): number {
  return Math.min(56, 30 + Math.round(Math.log10(Math.max(1, count)) * 9));
}
