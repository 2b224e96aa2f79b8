/**
 * Service map rendering benchmark (issue 9, DESIGN.md section 7), run by `npm run bench` after the
 * calendar benchmark, or alone:
 *
 *   npx tsx bench/map.ts [--customers 20000] [--work-orders 40000] [--runs 7] [--reseed] [--database-url URL]
 *
 * 1. Seeds (once, then reused) a PGlite data dir bench/.data/pglite-map-c{customers}-w{workOrders}
 *    with the demo data, whose customers have coordinates (a handful are left pending). With
 *    --database-url: that PostgreSQL database as bench/api.ts seeded it (whatever its counts), or
 *    seeded here when it is empty (bench/database.ts).
 * 2. Starts the built server (build/node/main.mjs) on it, with a bench staff account.
 * 3. In Debian's Chromium (CHROME_PATH, default /usr/bin/chromium), signed in, opens the Customers
 *    View (/admin/map?view=customers) and reads two performance marks the screen sets
 *    (app/features/map/api.ts): `map:data-ready` when the customers answer has arrived and been
 *    parsed, `map:markers-ready` after the clustered markers are on the page, a frame has been
 *    painted and the main thread has taken its next task (a click would be handled). The figure is
 *    the time between the two: the Leaflet markers of the server's clusters and single markers in
 *    view (decision 023-c; the screen's first answer is the default view's, then it fits to all
 *    markers and asks again, and the marks are set again for that answer). Each of `--runs` page loads after one warm-up.
 *
 * Figures only: a missed target is printed as MISSED and the exit code stays 0. Real errors (no
 * build, no Chromium, the server does not start, the marks never come) exit non-zero.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { databaseLabel, ensureSeeded, type BenchDatabase } from './database.ts';
import { benchAdmin, benchHost, fixed, formatTable, projectRoot, startBuiltServer } from './lib.ts';

const benchDataDir = path.join(projectRoot, 'bench/.data');
const resultsFile = path.join(benchDataDir, 'results-map.json');
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const admin = benchAdmin;
/** DESIGN.md section 7: 20,000 customers plotted (clustered) interactive within 1.5 s of data arriving. */
const targetMs = 1_500;
/** The screen's marks (app/features/map/api.ts). */
const marks = { dataReady: 'map:data-ready', markersReady: 'map:markers-ready' } as const;

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '20000' },
    'work-orders': { type: 'string', default: '40000' },
    runs: { type: 'string', default: '7' },
    reseed: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
});
const customerCount = Number(args.customers);
const workOrderCount = Number(args['work-orders']);
const runs = Number(args.runs);

type RunFigures = { renderMs: number; requestMs: number; transferKb: number; plotted: number; markers: number };

/** Loads the Customers View and reads the screen's marks and the answer's resource timing. */
async function measureLoad(page: Page, baseUrl: string): Promise<RunFigures> {
  await page.goto(`${baseUrl}/admin/map?view=customers`);
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, marks.markersReady, { timeout: 60_000, polling: 50 });
  return page.evaluate<RunFigures, typeof marks>((names) => {
    const [data] = performance.getEntriesByName(names.dataReady);
    const [markers] = performance.getEntriesByName(names.markersReady);
    const request = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/admin/map/customers?'))
      .at(-1) as PerformanceResourceTiming | undefined;
    const header = document.querySelector('[data-testid="map-header-count"]')?.textContent ?? '';
    const container = document.querySelector<HTMLElement>('.leaflet-container');
    return {
      renderMs: markers!.startTime - data!.startTime,
      requestMs: request ? request.responseEnd - request.startTime : Number.NaN,
      transferKb: request ? request.transferSize / 1024 : Number.NaN,
      plotted: Number(/^(\d+) customers/.exec(header)?.[1] ?? Number.NaN),
      markers: Number(container?.dataset.markers ?? Number.NaN),
    };
  }, marks);
}

function percentileOf(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  if (!fs.existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath} (apt-get install -y chromium, or set CHROME_PATH).`);
  const databaseUrl = args['database-url'];
  const target: BenchDatabase = databaseUrl
    ? { kind: 'postgres', url: databaseUrl }
    : { kind: 'pglite', dataDir: path.join(benchDataDir, `pglite-map-c${customerCount}-w${workOrderCount}`) };
  // On PostgreSQL the database bench/api.ts seeded is reused as it is (one seed per database).
  const seed = await ensureSeeded(target, { customers: customerCount, workOrders: workOrderCount, reseed: Boolean(args.reseed), withBenchUser: false, anyCounts: true });
  // On PostgreSQL the server's uploads and outbox go to a temporary data dir.
  const dataDir = target.kind === 'pglite' ? target.dataDir : fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-map-bench-'));

  const server = await startBuiltServer(
    dataDir,
    // No tile server here: the map's markers are what is measured.
    {
      ADMIN_EMAIL: benchAdmin.email,
      ADMIN_PASSWORD: benchAdmin.password,
      MAP_TILE_URL: `http://${benchHost}:9/{z}/{x}/{y}.png`,
      ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}),
    },
    60_000,
  ).catch((error: unknown) => {
    if (target.kind === 'postgres') fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/login`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/admin$/);

    const figures: RunFigures[] = [];
    for (let run = 0; run <= runs; run += 1) {
      const measured = await measureLoad(page, server.baseUrl);
      if (run === 0) continue; // warm-up: the server's first answer, the chunks' first compile
      figures.push(measured);
      console.log(
        `run ${run}: markers ${fixed(measured.renderMs, 0)} ms after the data (request ${fixed(measured.requestMs, 0)} ms, ${fixed(measured.transferKb, 0)} KB), ` +
          `${measured.plotted} customers plotted as ${measured.markers} markers and clusters`,
      );
    }
    await context.close();

    const render = figures.map((figure) => figure.renderMs);
    const request = figures.map((figure) => figure.requestMs);
    const medianRender = percentileOf(render, 50);
    const p95Render = percentileOf(render, 95);
    console.log('');
    console.log(`Service map, Customers View with ${figures[0]?.plotted} plotted customers (${databaseLabel(target)}, 1440x900, Chromium ${browser.version()}), ${runs} page loads after a warm-up:`);
    console.log(
      formatTable(
        ['measurement', 'median ms', 'p95 ms', `target (<= ${targetMs} ms)`],
        [
          ['data arrived -> interactive markers', fixed(medianRender, 0), fixed(p95Render, 0), p95Render <= targetMs ? 'ok' : 'MISSED'],
          ['customers request (for context)', fixed(percentileOf(request, 50), 0), fixed(percentileOf(request, 95), 0), ''],
        ],
      ),
    );
    fs.mkdirSync(benchDataDir, { recursive: true });
    fs.writeFileSync(resultsFile, `${JSON.stringify({ ranAt: new Date().toISOString(), database: databaseLabel(target), customers: seed.customers, workOrders: seed.workOrders, runs, targetMs, figures }, null, 2)}\n`);
    console.log(`Figures written to ${path.relative(projectRoot, resultsFile)}`);
  } finally {
    await browser.close();
    await server.stop();
    if (target.kind === 'postgres') fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\nMap benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
