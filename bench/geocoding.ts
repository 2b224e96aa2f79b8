/**
 * Geocoding throughput with the offline provider (issue 9, DESIGN.md section 7), run by
 * `npm run bench` after the calendar benchmark, or alone:
 *
 *   npx tsx bench/geocoding.ts [--customers 1000] [--database-url URL]
 *
 * 1. Starts the built server (build/node/main.mjs) on a fresh temporary data dir without demo data
 *    (with --database-url: on a scratch PostgreSQL database next to it, dropped at the end),
 *    with GEOCODER=zip and GEOCODER_PAUSE_MS=0 (no pause between lookups: the spec's 500 ms would
 *    cap any provider at 2 addresses a second, which says nothing about the server).
 * 2. Adds `--customers` pending customers through the API, each at its own street address over a
 *    set of South Carolina ZIP codes.
 * 3. Provider pass: batches of 100 (the most one request may start) one after the other, each
 *    polled until completed, until the server answers 'No customers need geocoding!'. Customers per
 *    second from the first POST to the last batch completed.
 * 4. Cache pass: as many customers again at the same addresses typed differently (upper case):
 *    every lookup is a cache hit.
 * 5. Baseline in this process: the same addresses straight through the ZIP provider and the
 *    result choice (no database, no HTTP): the provider's own ceiling. The batch rate is printed
 *    as a fraction of it.
 *
 * Figures only, no bar (the issue asks for the figure): the exit code is non-zero only on real
 * errors (no build, the server does not start, an answer is not 2xx, a batch does not complete).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createZipGeocoder } from '#server/adapters/geocoding/zip.ts';
import { chooseBestResult, geocodingLimits, geocodingMessages, type GeocodingAddress, type GeocodingBatch } from '#shared/geocoding.ts';
import { startFreshServer } from './database.ts';
import { benchAdmin, fixed, formatTable, projectRoot, type ServerProcess } from './lib.ts';

const resultsFile = path.join(projectRoot, 'bench/.data/results-geocoding.json');
const admin = benchAdmin;

/** South Carolina ZIP codes the offline table knows, with their city (so results carry no city warning but the approximate one). */
const places = [
  ['29910', 'Bluffton'],
  ['29909', 'Okatie'],
  ['29926', 'Hilton Head Island'],
  ['29902', 'Beaufort'],
  ['29401', 'Charleston'],
  ['29464', 'Mount Pleasant'],
  ['29201', 'Columbia'],
  ['29601', 'Greenville'],
  ['29577', 'Myrtle Beach'],
  ['29936', 'Ridgeland'],
] as const;

const { values: args } = parseArgs({ options: { customers: { type: 'string', default: '1000' }, 'database-url': { type: 'string' } } });
const customerCount = Number(args.customers);
if (!Number.isSafeInteger(customerCount) || customerCount < 1) throw new Error('--customers must be a whole number >= 1');

function addressOf(index: number): GeocodingAddress {
  const [zip, city] = places[index % places.length]!;
  return { address: `${index + 1} Benchmark Rd`, city, state: 'SC', zip };
}

let runningServer: ServerProcess | undefined;

async function api<T>(server: ServerProcess, cookie: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return { status: response.status, json: JSON.parse(text) as T };
}

async function signIn(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify(admin),
  });
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((header) => header.split(';')[0]!).find((pair) => pair.includes('='));
  if (!cookie) throw new Error('Sign-in answered without a cookie');
  return cookie;
}

async function addCustomers(server: ServerProcess, cookie: string, label: string, typed: (address: string) => string): Promise<void> {
  for (let index = 0; index < customerCount; index += 1) {
    const address = addressOf(index);
    await api(server, cookie, 'POST', '/api/admin/customers', {
      name: `${label} ${index + 1}`,
      phone: '(843) 555-0102',
      type: 'residential',
      ...address,
      address: typed(address.address),
    });
  }
}

type Pass = { customers: number; batches: number; seconds: number; perSecond: number; succeeded: number; failed: number };

/** Batches of the largest size one after the other until nothing is pending; each polled until done. */
async function geocodeEverything(server: ServerProcess, cookie: string): Promise<Pass> {
  const started = performance.now();
  let batches = 0;
  let succeeded = 0;
  let failed = 0;
  while (true) {
    const { status, json: batch } = await api<GeocodingBatch>(server, cookie, 'POST', '/api/admin/geocoding/batches', { count: geocodingLimits.maxBatchSize });
    if (status === 200) {
      if (batch.message !== geocodingMessages.noneNeeded) throw new Error(`Unexpected answer: ${JSON.stringify(batch)}`);
      break;
    }
    batches += 1;
    let current = batch;
    const deadline = performance.now() + 120_000;
    while (current.status === 'running') {
      if (performance.now() > deadline) throw new Error(`Batch ${batch.id} still running after 120 s (${current.processed}/${current.total})`);
      // Polling is fine here: a few milliseconds is the resolution of a figure over seconds.
      await sleep(5);
      current = (await api<GeocodingBatch>(server, cookie, 'GET', `/api/admin/geocoding/batches/${batch.id}`)).json;
    }
    if (current.status !== 'completed') throw new Error(`Batch ${batch.id} ended ${current.status}`);
    succeeded += current.succeeded;
    failed += current.failed;
  }
  const seconds = (performance.now() - started) / 1000;
  const customers = succeeded + failed;
  return { customers, batches, seconds, perSecond: customers / seconds, succeeded, failed };
}

/** The provider alone: each address through the ZIP table and the result choice, in this process. */
async function providerBaseline(): Promise<{ lookups: number; seconds: number; perSecond: number }> {
  const geocoder = createZipGeocoder();
  const addresses = Array.from({ length: customerCount }, (_, index) => addressOf(index));
  const once = async () => {
    for (const address of addresses) {
      const outcome = await geocoder.geocode(address);
      if (outcome.kind !== 'results' || !chooseBestResult(outcome.candidates, address).ok) throw new Error(`The ZIP provider found no place for ${JSON.stringify(address)}`);
    }
  };
  await once(); // loads the table, warms the JIT
  const rounds = 5;
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) await once();
  const seconds = (performance.now() - started) / 1000;
  return { lookups: rounds * customerCount, seconds, perSecond: (rounds * customerCount) / seconds };
}

async function main(): Promise<void> {
  // A fresh database is migrated first: slow on a busy machine.
  const server = await startFreshServer(
    'geocoding',
    args['database-url'],
    { ADMIN_EMAIL: benchAdmin.email, ADMIN_PASSWORD: benchAdmin.password, GEOCODER: 'zip', GEOCODER_PAUSE_MS: '0' },
    120_000,
  );
  runningServer = server;
  let provider: Pass;
  let cached: Pass;
  try {
    const cookie = await signIn(server);
    console.log(`Adding ${customerCount} pending customers...`);
    await addCustomers(server, cookie, 'Geocoding Bench', (address) => address);
    console.log('Provider pass: batches of 100 until none is pending...');
    provider = await geocodeEverything(server, cookie);
    console.log(`Adding ${customerCount} more customers at the same addresses...`);
    await addCustomers(server, cookie, 'Geocoding Bench Again', (address) => address.toUpperCase());
    console.log('Cache pass...');
    cached = await geocodeEverything(server, cookie);
  } finally {
    await server.stop();
    runningServer = undefined;
  }
  console.log('Baseline: the ZIP provider alone...');
  const baseline = await providerBaseline();

  const row = (name: string, pass: Pass) => [
    name,
    String(pass.customers),
    String(pass.batches),
    fixed(pass.seconds, 2),
    fixed(pass.perSecond, 0),
    fixed(pass.perSecond / baseline.perSecond, 3),
    `${pass.succeeded} ok, ${pass.failed} failed`,
  ];
  console.log('');
  console.log(`Geocoding throughput, offline ZIP provider, no pause, ${args['database-url'] ? 'PostgreSQL' : 'PGlite'}; Node ${process.versions.node}, ${os.availableParallelism()} CPUs.`);
  console.log('');
  console.log(
    formatTable(
      ['measurement', 'customers', 'batches', 'seconds', 'customers/s', '÷ provider alone', 'results'],
      [
        row('batches through the server (provider lookups)', provider!),
        row('batches through the server (cache hits)', cached!),
        ['ZIP provider + result choice alone (baseline)', String(baseline.lookups), '', fixed(baseline.seconds, 2), fixed(baseline.perSecond, 0), '1.000', ''],
      ],
    ),
  );
  console.log(`With the spec's 500 ms pause a batch is paced at 2 addresses a second whatever the server can do.`);
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  const report = { ranAt: new Date().toISOString(), customers: customerCount, provider: provider!, cached: cached!, baseline };
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value), 2)}\n`);
  console.log(`Figures written to ${path.relative(projectRoot, resultsFile)}`);
}

for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    void (runningServer?.stop() ?? Promise.resolve()).finally(() => process.exit(exitCode));
  });
}
process.once('exit', () => runningServer?.signalStop());

main().catch((error: unknown) => {
  process.stderr.write(`\nBenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
