import Supercluster from 'supercluster';
import { clusterMaxZoom, clusterRadiusPx, stackedListMax, type MapView } from '#shared/map-view.ts';
import type { MapMatching } from '#shared/map.ts';

// Clustering on the server (decision 023-c): every item a view's filters keep is indexed once per
// database snapshot and filter set; each request takes the clusters and single markers of its box
// at its zoom from the index. Same library and settings as the screen used before (radius 60 px,
// up to zoom 17), so the map looks as it did.

/** A plotted item as the view's answer carries it (MapProperty or MapCustomer). */
export type MarkerItem = { id: string; latitude: number; longitude: number; activeWorkOrders: number };

/** The items of one filter set, indexed, with what the answer says about all of them. */
export type MarkerSet<Item extends MarkerItem> = {
  index: Supercluster<Item, Supercluster.AnyProps>;
  /** `"matching":{…},` plus the header's figures, as JSON text ready to splice into every answer. */
  summary: string;
};

export function boundsOfItems(items: readonly MarkerItem[]): MapMatching['bounds'] {
  if (items.length === 0) return null;
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const item of items) {
    if (item.latitude < south) south = item.latitude;
    if (item.latitude > north) north = item.latitude;
    if (item.longitude < west) west = item.longitude;
    if (item.longitude > east) east = item.longitude;
  }
  return [
    [south, west],
    [north, east],
  ];
}

/**
 * Indexes a view's items. `header` is the answer's filter-independent figures (already JSON
 * members, e.g. `"total":5,"withActiveWorkOrders":2`).
 */
export function buildMarkerSet<Item extends MarkerItem>(items: Item[], header: string): MarkerSet<Item> {
  const index = new Supercluster<Item, Supercluster.AnyProps>({ radius: clusterRadiusPx, maxZoom: clusterMaxZoom });
  index.load(items.map((item) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [item.longitude, item.latitude] }, properties: item })));
  const matching: MapMatching = {
    count: items.length,
    withActiveWorkOrders: items.reduce((sum, item) => sum + (item.activeWorkOrders > 0 ? 1 : 0), 0),
    bounds: boundsOfItems(items),
  };
  return { index, summary: `"matching":${JSON.stringify(matching)},${header}` };
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The answer for one view as JSON text: `{"<itemsKey>":[single markers],"clusters":[…],"matching":…,…}`.
 * Cluster positions are rounded to 6 decimals (the items' own precision).
 */
export function viewAnswer<Item extends MarkerItem>(set: MarkerSet<Item>, itemsKey: string, view: MapView): string {
  const items: string[] = [];
  const clusters: string[] = [];
  for (const feature of set.index.getClusters(view.bbox, view.zoom)) {
    const properties = feature.properties as Item | Supercluster.ClusterProperties;
    if (!('cluster' in properties) || !properties.cluster) {
      items.push(JSON.stringify(properties));
      continue;
    }
    const [longitude, latitude] = feature.geometry.coordinates as [number, number];
    const id = properties.cluster_id;
    const expansionZoom = set.index.getClusterExpansionZoom(id);
    const cluster: Record<string, unknown> = { id, latitude: round6(latitude), longitude: round6(longitude), count: properties.point_count, expansionZoom };
    // Its points share one spot: zooming cannot separate them, so the screen lists them.
    if (expansionZoom > clusterMaxZoom) cluster.stacked = set.index.getLeaves(id, stackedListMax).map((leaf) => leaf.properties);
    clusters.push(JSON.stringify(cluster));
  }
  return `{"${itemsKey}":[${items.join(',')}],"clusters":[${clusters.join(',')}],${set.summary}}`;
}
