import { southCarolinaBounds, type GeocodingAccuracy } from '#shared/geocoding.ts';

/**
 * Where the demo customers are (issue 9): coordinates near their town and ZIP, as a geocoder would
 * have stored them, a few shared addresses (a condo building, an office complex: map properties
 * with more than one customer), and the newest few customers still pending, so the geocoding setup
 * page and the map's 'Geocode {n} addresses' button have work (their ZIPs are real South Carolina
 * ZIPs, so the offline ZIP provider finds them).
 *
 * A random stream of its own, so the rest of the demo data (names, work orders...) is the same as
 * without it.
 */

/** Rough centre and spread (degrees) of each seeded town and ZIP: on land, around where people live. */
const areas: Record<string, { latitude: number; longitude: number; spread: [number, number] }> = {
  'Bluffton|29910': { latitude: 32.245, longitude: -80.875, spread: [0.025, 0.04] },
  'Bluffton|29909': { latitude: 32.295, longitude: -80.945, spread: [0.02, 0.03] },
  'Hilton Head Island|29926': { latitude: 32.215, longitude: -80.735, spread: [0.015, 0.02] },
  'Hilton Head Island|29928': { latitude: 32.155, longitude: -80.76, spread: [0.01, 0.02] },
  'Okatie|29909': { latitude: 32.33, longitude: -80.92, spread: [0.02, 0.02] },
  'Beaufort|29902': { latitude: 32.43, longitude: -80.685, spread: [0.012, 0.012] },
  'Beaufort|29906': { latitude: 32.45, longitude: -80.745, spread: [0.02, 0.025] },
  'Beaufort|29907': { latitude: 32.42, longitude: -80.625, spread: [0.015, 0.015] },
  'Hardeeville|29927': { latitude: 32.285, longitude: -81.08, spread: [0.025, 0.025] },
  'Ridgeland|29936': { latitude: 32.48, longitude: -80.98, spread: [0.025, 0.025] },
  'Port Royal|29935': { latitude: 32.38, longitude: -80.69, spread: [0.01, 0.01] },
};
/** Anything else: the service area's middle (Bluffton). */
const fallbackArea = { latitude: 32.25, longitude: -80.86, spread: [0.05, 0.06] as [number, number] };

/** How many of the newest customers stay pending: a handful, however large the data set. */
export function pendingGeocodingCount(customers: number): number {
  return Math.min(6, Math.floor(customers / 8));
}

type LocatedCustomer = {
  address: string;
  city?: string;
  state?: string;
  zip?: string | null;
  type?: string;
  createdAt: Date;
  latitude?: number | null;
  longitude?: number | null;
  geocodingStatus?: string;
  geocodedAt?: Date | null;
  formattedAddress?: string | null;
  geocodingAccuracy?: string | null;
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Sets the geocoding columns of demo customers (in place), and makes a few share an address. */
export function assignDemoLocations(rows: LocatedCustomer[], nowMs: number, random: () => number): void {
  /** A normal deviate (Box-Muller), cut at 2: customers cluster around the town's middle. */
  const normal = () => clamp(Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()), -2, 2);
  const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

  const pending = new Set(
    [...rows]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, pendingGeocodingCount(rows.length)),
  );

  for (const row of rows) {
    if (pending.has(row)) {
      Object.assign(row, { latitude: null, longitude: null, geocodingStatus: 'pending', geocodedAt: null, formattedAddress: null, geocodingAccuracy: null });
      continue;
    }
    const area = areas[`${row.city}|${row.zip}`] ?? fallbackArea;
    const accuracy: GeocodingAccuracy = random() < 0.8 ? 'ROOFTOP' : 'RANGE_INTERPOLATED';
    Object.assign(row, {
      latitude: round6(clamp(area.latitude + normal() * area.spread[0], southCarolinaBounds.minLatitude, southCarolinaBounds.maxLatitude)),
      longitude: round6(clamp(area.longitude + normal() * area.spread[1], southCarolinaBounds.minLongitude, southCarolinaBounds.maxLongitude)),
      geocodingStatus: 'success',
      // Geocoded within a day of signing up.
      geocodedAt: new Date(Math.min(nowMs, row.createdAt.getTime() + Math.floor(random() * 24 * 60) * 60_000)),
      formattedAddress: `${row.address}, ${row.city}, ${row.state ?? 'SC'} ${row.zip ?? ''}`.trim() + ', USA',
      geocodingAccuracy: accuracy,
    });
  }

  // Shared addresses: a building with two or three customers, one in about 30 (alternately an
  // office complex around a commercial customer and a condo building around a residential one).
  const located = rows.filter((row) => !pending.has(row));
  const groups = located.length < 20 ? 0 : Math.max(2, Math.round(rows.length / 30));
  // Customers not yet in a building, per type, in random order: each pick takes the next one.
  const pools = new Map<string | undefined, LocatedCustomer[]>();
  for (const row of located) {
    if (!pools.has(row.type)) pools.set(row.type, []);
    pools.get(row.type)!.push(row);
  }
  for (const pool of pools.values()) {
    for (let i = pool.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
  }
  const taken = new Set<LocatedCustomer>();
  const pick = (wanted?: string): LocatedCustomer | undefined => {
    const pool = wanted === undefined ? [...pools.values()].flat() : (pools.get(wanted) ?? []);
    let chosen = pool.pop();
    while (chosen && taken.has(chosen)) chosen = pool.pop();
    if (chosen) taken.add(chosen);
    return chosen;
  };
  for (let group = 0; group < groups; group += 1) {
    const anchor = pick(group % 2 === 0 ? 'commercial' : 'residential') ?? pick();
    if (!anchor) break;
    // The building, not a suite in it.
    anchor.address = anchor.address.replace(/, Suite \w+$/, '');
    anchor.formattedAddress = `${anchor.address}, ${anchor.city}, ${anchor.state ?? 'SC'} ${anchor.zip ?? ''}`.trim() + ', USA';
    const size = random() < 0.5 ? 2 : 3;
    for (let member = 1; member < size; member += 1) {
      const neighbour = pick(anchor.type);
      if (!neighbour) break;
      Object.assign(neighbour, {
        address: anchor.address,
        city: anchor.city,
        state: anchor.state,
        zip: anchor.zip,
        latitude: anchor.latitude,
        longitude: anchor.longitude,
        formattedAddress: anchor.formattedAddress,
        geocodingAccuracy: anchor.geocodingAccuracy,
      });
    }
  }
}
