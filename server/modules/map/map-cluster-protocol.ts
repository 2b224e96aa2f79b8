import type { MapView } from '#shared/map-view.ts';

// Messages between the map service and its clustering thread (decisions 023-c, 024-b).

export type MarkerKind = 'properties' | 'customers';

/**
 * How many marker sets of each kind the thread keeps at most: as many as the service's caches
 * (map.service.ts), which also release each set they drop (a commit drops them all).
 */
export const markerSetLimits: Record<MarkerKind, number> = { properties: 8, customers: 4 };

export type ClusterRequest =
  /** Index a view's markers (each item's JSON text, the header's figures) as set `set`. */
  | { id: number; type: 'load'; set: number; kind: MarkerKind; items: string[]; total: number; withActiveWorkOrders: number }
  /** The answer for a view of set `set`, as JSON text. */
  | { id: number; type: 'view'; set: number; view: MapView }
  /** Forget set `set` (the service no longer keeps it). */
  | { id: number; type: 'release'; set: number };

/** `gone`: the set asked for was released (or never loaded on this thread). */
export type ClusterReply = { id: number; answer?: string; error?: string; gone?: boolean };
