import { z } from 'zod';

// What part of the map a client asks for (decision 023-c): the box it shows and its zoom. The
// server clusters every plotted item (supercluster, as the browser did before) and answers with the
// clusters and single markers in that box only. The geometry here is Web Mercator with 256-pixel
// tiles, as Leaflet's: the screen, the server and the bench compute the same boxes.

/** Points closer than this many pixels join a cluster. */
export const clusterRadiusPx = 60;
/** Above this zoom nothing is clustered; points still together there share one spot. */
export const clusterMaxZoom = 17;
/** The map's own zoom limit. */
export const mapMaxZoom = 18;
/** A cluster whose points cannot be told apart by zooming lists at most this many of them. */
export const stackedListMax = 50;

/** [west, south, east, north] in degrees. */
export type MapBox = [west: number, south: number, east: number, north: number];
/** Web Mercator stops at about 85.05° (square world). */
export const mercatorMaxLatitude = 85.0511287798;

export const mapViewMessages = {
  bbox: 'bbox must be four numbers west,south,east,north in degrees (west < east, south < north, longitudes -180 to 180, latitudes -90 to 90)',
  zoom: `zoom must be a whole number from 0 to ${mapMaxZoom}`,
} as const;

const degrees = /^-?\d{1,3}(\.\d+)?$/;

/** The `bbox` query parameter: "west,south,east,north". */
export const mapBoxSchema = z.string().transform((value, context): MapBox => {
  const parts = value.split(',');
  const numbers = parts.map((part) => (degrees.test(part.trim()) ? Number(part) : Number.NaN));
  const [west, south, east, north] = numbers as MapBox;
  const valid =
    numbers.length === 4 &&
    numbers.every(Number.isFinite) &&
    west >= -180 &&
    east <= 180 &&
    west < east &&
    south >= -90 &&
    north <= 90 &&
    south < north;
  if (!valid) {
    context.addIssue({ code: 'custom', message: mapViewMessages.bbox });
    return z.NEVER;
  }
  return [west, south, east, north];
});

/** The view part of a map request: the box shown (padded and snapped by mapRequestView) and the zoom. */
export const mapViewSchema = z.object({
  bbox: mapBoxSchema,
  zoom: z
    .string()
    .regex(/^\d{1,2}$/, mapViewMessages.zoom)
    .transform(Number)
    .pipe(z.number().int(mapViewMessages.zoom).min(0, mapViewMessages.zoom).max(mapMaxZoom, mapViewMessages.zoom)),
});
export type MapView = z.output<typeof mapViewSchema>;

/** The query string of a view (rounded: equal views make equal requests, and the server's cache key). */
export function mapViewQuery(view: MapView): string {
  return new URLSearchParams({ bbox: view.bbox.map((value) => String(round6(value))).join(','), zoom: String(view.zoom) }).toString();
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** World fractions (0..1) of a longitude and a latitude in Web Mercator. */
export const worldX = (longitude: number) => (longitude + 180) / 360;
export function worldY(latitude: number): number {
  const radians = (clamp(latitude, -mercatorMaxLatitude, mercatorMaxLatitude) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2;
}
export const longitudeOf = (x: number) => x * 360 - 180;
export function latitudeOf(y: number): number {
  const k = Math.PI - 2 * Math.PI * y;
  return (180 / Math.PI) * Math.atan(Math.sinh(k));
}

/**
 * What a client asks for when it shows `bounds` at `zoom`: the box padded by a quarter of its size
 * on every side (markers just outside the view are there when it pans a little), snapped outwards to
 * the zoom's 256-pixel tiles and kept inside the world. Small pans give the same box: the same
 * request (the query cache answers it) and the same key in the server's cache.
 */
export function mapRequestView(bounds: { west: number; south: number; east: number; north: number }, zoom: number): MapView {
  const z = clamp(Math.round(zoom), 0, mapMaxZoom);
  const tiles = 2 ** z;
  const width = bounds.east - bounds.west;
  const west = worldX(bounds.east - bounds.west >= 360 ? -180 : bounds.west - width / 4);
  const east = worldX(bounds.east - bounds.west >= 360 ? 180 : bounds.east + width / 4);
  const top = worldY(bounds.north);
  const bottom = worldY(bounds.south);
  const height = bottom - top;
  const x0 = clamp(Math.floor(west * tiles), 0, tiles - 1);
  const x1 = clamp(Math.ceil(east * tiles), x0 + 1, tiles);
  const y0 = clamp(Math.floor((top - height / 4) * tiles), 0, tiles - 1);
  const y1 = clamp(Math.ceil((bottom + height / 4) * tiles), y0 + 1, tiles);
  return {
    bbox: [round6(longitudeOf(x0 / tiles)), round6(latitudeOf(y1 / tiles)), round6(longitudeOf(x1 / tiles)), round6(latitudeOf(y0 / tiles))],
    zoom: z,
  };
}

/** South-west and north-east corners, as Leaflet's fitBounds takes them. */
export type MapBounds = [[south: number, west: number], [north: number, east: number]];

/**
 * The view Leaflet's fitBounds(bounds, { padding, maxZoom }) shows in a map of `size` pixels (zoom
 * snapped to whole levels, as the map's): its centre, zoom and edges. The bench asks what the screen
 * asks after fitting to all markers.
 */
export function fittedView(bounds: MapBounds, size: { width: number; height: number }, options: { padding: number; maxZoom: number }) {
  const [[south, west], [north, east]] = bounds;
  const spanX = Math.max(worldX(east) - worldX(west), 1e-12);
  const spanY = Math.max(worldY(south) - worldY(north), 1e-12);
  const scale = Math.min((size.width - 2 * options.padding) / (256 * spanX), (size.height - 2 * options.padding) / (256 * spanY));
  const zoom = clamp(Math.floor(Math.log2(scale)), 0, options.maxZoom);
  const centerX = (worldX(west) + worldX(east)) / 2;
  const centerY = (worldY(north) + worldY(south)) / 2;
  const halfX = size.width / 2 / (256 * 2 ** zoom);
  const halfY = size.height / 2 / (256 * 2 ** zoom);
  return {
    zoom,
    center: [latitudeOf(centerY), longitudeOf(centerX)] as [number, number],
    edges: { west: longitudeOf(centerX - halfX), east: longitudeOf(centerX + halfX), north: latitudeOf(centerY - halfY), south: latitudeOf(centerY + halfY) },
  };
}
