import type { MapView } from '#shared/map-view.ts';

// Messages between the map service and its clustering thread (decision 023-c).

export type MarkerKind = 'properties' | 'customers';

/** How many marker sets of each kind the thread keeps: as many as the service's caches (map.service.ts). */
export const markerSetLimits: Record<MarkerKind, number> = { properties: 8, customers: 4 };

export type ClusterRequest =
  /** Parse a view's whole answer (the repository's JSON) and index its items as set `set`. */
  | { id: number; type: 'load'; set: number; kind: MarkerKind; text: string }
  /** The answer for a view of set `set`, as JSON text. */
  | { id: number; type: 'view'; set: number; view: MapView };

export type ClusterReply = { id: number; answer?: string; error?: string };
