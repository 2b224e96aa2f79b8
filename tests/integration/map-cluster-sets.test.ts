import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { createClusterThread, MarkerSetGoneError } from '#server/modules/map/map-cluster-thread.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// The map's marker sets live on the clustering thread until the service's caches let them go
// (decision 024-b): a commit or an older set past the limit releases them there.

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const customer = (id: string, latitude: number, longitude: number) =>
  JSON.stringify({ id, name: id, type: 'residential', latitude, longitude, totalWorkOrders: 1, activeWorkOrders: 0 });
const everywhere = { bbox: [-180, -85, 180, 85] as [number, number, number, number], zoom: 18 };

describe('the clustering thread', () => {
  it('answers views of a loaded set, and none once the set is released', async () => {
    const clusters = createClusterThread();
    try {
      const set = await clusters.load('customers', { items: [customer('a', 32.1, -80.8), customer('b', 32.3, -80.9)], total: 3, withActiveWorkOrders: 0 });
      const answer = JSON.parse(await clusters.view(set, everywhere)) as { customers: { id: string }[]; total: number; matching: { count: number } };
      expect(answer.customers.map((item) => item.id).sort()).toEqual(['a', 'b']);
      expect(answer).toMatchObject({ total: 3, withActiveWorkOrders: 0, matching: { count: 2 } });
      await clusters.release(set);
      await expect(clusters.view(set, everywhere)).rejects.toBeInstanceOf(MarkerSetGoneError);
      // Another set is untouched by the release.
      const other = await clusters.load('customers', { items: [], total: 0, withActiveWorkOrders: 0 });
      expect(JSON.parse(await clusters.view(other, everywhere))).toMatchObject({ customers: [], clusters: [], matching: { count: 0, bounds: null } });
    } finally {
      await clusters.close();
    }
  });
});

describe('a snapshot cache', () => {
  it('tells what it lets go: every kept answer at a commit, the oldest past its size', async () => {
    const dropped: string[] = [];
    const cache = createSnapshotCache<string>(database.db, { maxEntries: 2, onDrop: (answer) => void answer.then((value) => dropped.push(value)) });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get('a', async () => 'answer a')).toBe('answer a');
    expect(await cache.get('b', async () => 'answer b')).toBe('answer b');
    await settle();
    expect(dropped).toEqual([]);
    expect(await cache.get('c', async () => 'answer c')).toBe('answer c');
    await settle();
    expect(dropped).toEqual(['answer a']);
    await database.query(`insert into customers (name, phone, address) values ('Snapshot Mover', '(843) 555-0142', '1 Commit Ct')`);
    expect(await cache.get('d', async () => 'answer d')).toBe('answer d');
    await settle();
    expect(dropped.sort()).toEqual(['answer a', 'answer b', 'answer c']);
  });
});
