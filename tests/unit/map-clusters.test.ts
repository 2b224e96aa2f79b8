import { describe, expect, it } from 'vitest';
import type { MapCustomer, MapCustomersResponse } from '#shared/map.ts';
import { clusterMaxZoom, fittedView, mapRequestView, mapViewQuery, mapViewSchema, worldX, worldY, type MapView } from '#shared/map-view.ts';
import { buildMarkerSet, viewAnswer } from '#server/modules/map/map-clusters.ts';

// Clustering on the server (decision 023-c): the view a client asks for, the fit the bench
// reproduces, and the answer for a box at a zoom.

const customer = (id: string, latitude: number, longitude: number, activeWorkOrders = 0): MapCustomer => ({
  id,
  name: `Customer ${id}`,
  type: 'residential',
  latitude,
  longitude,
  totalWorkOrders: activeWorkOrders,
  activeWorkOrders,
  isMember: false,
});

/** A 100 x 200 grid, 0.01° apart, from 32°N 81°W. */
const grid = Array.from({ length: 20_000 }, (_, index) => customer(`c${index}`, 32 + (index % 200) / 100, -81 + Math.floor(index / 200) / 100, index % 3 === 0 ? 1 : 0));
const set = buildMarkerSet(grid, '"total":20000,"withActiveWorkOrders":6667');
const answer = (view: MapView) => JSON.parse(viewAnswer(set, 'customers', view)) as MapCustomersResponse;

describe('the view a client asks for', () => {
  it('reads bbox and zoom from the query string', () => {
    expect(mapViewSchema.parse({ bbox: '-84,31.5,-78,36', zoom: '7' })).toEqual({ bbox: [-84, 31.5, -78, 36], zoom: 7 });
    for (const bad of [
      { bbox: '-84,31,-78', zoom: '7' },
      { bbox: '-84,31,-78,36,1', zoom: '7' },
      { bbox: '-78,31,-84,36', zoom: '7' },
      { bbox: '-84,31,-78,91', zoom: '7' },
      { bbox: '1e2,31,120,36', zoom: '7' },
      { bbox: '-84,31,-78,36', zoom: '19' },
      { bbox: '-84,31,-78,36', zoom: '7.5' },
      { bbox: '-84,31,-78,36' },
    ]) {
      expect(mapViewSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('pads the shown box by a quarter and snaps it to the zoom\'s tiles: small pans ask the same', () => {
    const shown = { west: -81.2, south: 32.0, east: -80.4, north: 32.4 };
    const view = mapRequestView(shown, 10);
    const [west, south, east, north] = view.bbox;
    expect(view.zoom).toBe(10);
    expect(west).toBeLessThanOrEqual(shown.west - 0.2);
    expect(east).toBeGreaterThanOrEqual(shown.east + 0.2);
    expect(south).toBeLessThan(shown.south - 0.09);
    expect(north).toBeGreaterThan(shown.north + 0.09);
    // Edges on the tile grid of zoom 10.
    for (const x of [worldX(west) * 1024, worldX(east) * 1024, worldY(north) * 1024, worldY(south) * 1024]) expect(Math.abs(x - Math.round(x))).toBeLessThan(1e-4);
    const nudged = mapRequestView({ west: shown.west + 0.0005, south: shown.south + 0.0005, east: shown.east + 0.0005, north: shown.north + 0.0005 }, 10);
    expect(mapViewQuery(nudged)).toBe(mapViewQuery(view));
    // The whole world stays the world.
    expect(mapRequestView({ west: -400, south: -89, east: 400, north: 89 }, 1).bbox).toEqual([-180, -85.051129, 180, 85.051129]);
  });

  it('finds the zoom a fit to all markers shows: the highest at which they fit, at most the cap', () => {
    const size = { width: 1144, height: 585 };
    const bounds: [[number, number], [number, number]] = [
      [32.0, -83.3],
      [35.12, -78.6],
    ];
    const { zoom, edges } = fittedView(bounds, size, { padding: 32, maxZoom: 16 });
    const fits = (z: number) => (worldX(-78.6) - worldX(-83.3)) * 256 * 2 ** z <= size.width - 64 && (worldY(32) - worldY(35.12)) * 256 * 2 ** z <= size.height - 64;
    expect(fits(zoom)).toBe(true);
    expect(fits(zoom + 1)).toBe(false);
    expect(edges.west).toBeLessThan(-83.3);
    expect(edges.east).toBeGreaterThan(-78.6);
    expect(edges.south).toBeLessThan(32);
    expect(edges.north).toBeGreaterThan(35.12);
    expect(fittedView([[32.1, -80.9], [32.1, -80.9]], size, { padding: 32, maxZoom: 16 }).zoom).toBe(16);
  });
});

describe('the answer for a box at a zoom', () => {
  it('clusters 20,000 customers at a low zoom into a few markers that add up to all of them', () => {
    const overview = answer({ bbox: [-84, 31, -78, 36], zoom: 7 });
    expect(overview.clusters.length + overview.customers.length).toBeLessThan(200);
    expect(overview.clusters.reduce((sum, cluster) => sum + cluster.count, 0) + overview.customers.length).toBe(20_000);
    expect(overview.clusters.every((cluster) => cluster.expansionZoom > 7 && cluster.expansionZoom <= clusterMaxZoom && cluster.stacked === undefined)).toBe(true);
    expect(overview.matching).toEqual({ count: 20_000, withActiveWorkOrders: 6667, bounds: [[32, -81], [33.99, -80.01]] });
    expect({ total: overview.total, withActiveWorkOrders: overview.withActiveWorkOrders }).toEqual({ total: 20_000, withActiveWorkOrders: 6667 });
    // Far smaller than every customer: what the view shows, not the table.
    expect(viewAnswer(set, 'customers', { bbox: [-84, 31, -78, 36], zoom: 7 }).length).toBeLessThan(20_000);
  });

  it('gives single markers past the clustering zoom, only those inside the box', () => {
    const close = answer({ bbox: [-81.005, 31.995, -80.985, 32.015], zoom: clusterMaxZoom + 1 });
    expect(close.clusters).toEqual([]);
    expect(close.customers.map((item) => `${item.latitude} ${item.longitude}`).sort()).toEqual(['32 -80.99', '32 -81', '32.01 -80.99', '32.01 -81']);
    expect(close.customers[0]).toEqual(grid.find((item) => item.id === close.customers[0]!.id));
  });

  it('says nothing is there for a box without markers, and has no bounds without items', () => {
    const empty = answer({ bbox: [-100, 40, -99, 41], zoom: 9 });
    expect({ customers: empty.customers, clusters: empty.clusters }).toEqual({ customers: [], clusters: [] });
    expect(JSON.parse(viewAnswer(buildMarkerSet([], '"total":0,"withActiveWorkOrders":0'), 'customers', { bbox: [-84, 31, -78, 36], zoom: 7 }))).toEqual({
      customers: [],
      clusters: [],
      matching: { count: 0, withActiveWorkOrders: 0, bounds: null },
      total: 0,
      withActiveWorkOrders: 0,
    });
  });
});
