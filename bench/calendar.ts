/**
 * Calendar rendering benchmark (issue 8, DESIGN.md section 7), run by `npm run bench` after the API
 * benchmark, or alone:
 *
 *   npx tsx bench/calendar.ts [--events 300] [--runs 7] [--database-url URL]
 *
 * 1. Starts the built server (build/node/main.mjs) on a fresh temporary data dir without demo data
 *    (with --database-url: on a scratch PostgreSQL database next to it, dropped at the end).
 * 2. Through the API, books `--events` appointments into one week (Sunday to Saturday, 07:00-19:00,
 *    several side by side in a slot, as a busy dispatcher's week looks).
 * 3. In Debian's Chromium (CHROME_PATH, default /usr/bin/chromium), signed in, opens the calendar on
 *    the empty week before it, then measures in the page, from the click on "next" to the last of
 *    the week's events being on screen:
 *    - first visit: the range is fetched, then rendered;
 *    - return visit: back and forth again, the range comes from the query cache (render only).
 *    Each `--runs` times (after one unmeasured warm-up); median and worst are printed.
 *
 * Figures only: a missed target is printed as MISSED and the exit code stays 0. Real errors (no
 * build, no Chromium, the server does not start, the events never all appear) exit non-zero.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { addDays } from '#shared/dates.ts';
import { startFreshServer } from './database.ts';
import { benchAdmin, fixed, formatTable, projectRoot, type ServerProcess } from './lib.ts';

const resultsFile = path.join(projectRoot, 'bench/.data/results-calendar.json');
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const admin = benchAdmin;
/** DESIGN.md section 7: a week with 300 events renders in <= 300 ms. */
const targetMs = 300;
/** A Sunday years away from any real data: the measured week. */
const weekStart = '2031-03-02';
/** Every bench event's title starts with this, so the page can count them. */
const titlePrefix = 'Bench load';

const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '300' }, runs: { type: 'string', default: '7' }, 'database-url': { type: 'string' } },
});
const eventCount = Number(args.events);
const runs = Number(args.runs);

async function api(server: ServerProcess, cookie: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { cookie, 'content-type': 'application/json', origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
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

/** `count` appointments over the week: per day, per hour from 07:00, a few side by side. */
async function bookWeek(server: ServerProcess, cookie: string, count: number): Promise<void> {
  const { customer } = (await api(server, cookie, 'POST', '/api/admin/customers', {
    name: 'Calendar Bench Customer',
    phone: '(843) 555-0101',
    address: '1 Benchmark Way',
    city: 'Bluffton',
    state: 'SC',
    type: 'residential',
  })) as { customer: { id: string } };
  for (let index = 0; index < count; index += 1) {
    const day = index % 7;
    const hour = 7 + (Math.floor(index / 7) % 11);
    const length = 1 + (index % 2);
    await api(server, cookie, 'POST', '/api/admin/work-orders', {
      customerId: customer.id,
      title: `${titlePrefix} ${index + 1}`,
      description: 'Calendar rendering benchmark',
      serviceType: ['repair', 'maintenance', 'installation', 'inspection'][index % 4],
      priority: ['normal', 'normal', 'high', 'emergency', 'low'][index % 5],
      serviceDate: addDays(weekStart, day),
      startTime: `${String(hour).padStart(2, '0')}:00`,
      endTime: `${String(Math.min(hour + length, 19)).padStart(2, '0')}:00`,
    });
  }
}

/**
 * Clicks the toolbar's "next" button and resolves with the milliseconds until `expected` bench
 * events are in the document (a MutationObserver in the page; no polling from outside).
 */
async function timeNext(page: Page, expected: number): Promise<number> {
  // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
  return page.evaluate<number>(`new Promise((resolve, reject) => {
    const wanted = ${JSON.stringify(expected)};
    const prefix = ${JSON.stringify(titlePrefix)};
    // The event elements (links or buttons) that show a bench title: cheap enough to run on every mutation.
    const count = () => [...document.querySelectorAll('.service-calendar [role="button"], .service-calendar a')]
      .filter((element) => (element.textContent || '').includes(prefix)).length;
    // After the clock stops: the distinct titles on screen, so nested elements cannot pass for events.
    const distinctTitles = () => new Set([...document.querySelectorAll('.service-calendar *')]
      .filter((element) => element.children.length === 0 && (element.textContent || '').startsWith(prefix))
      .map((element) => element.textContent)).size;
    const next = document.querySelector('.service-calendar button[title^="Next"], .service-calendar button[aria-label^="Next"]');
    if (!next) return reject(new Error('no "next" button in the calendar toolbar'));
    const started = performance.now();
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error('only ' + count() + ' of ' + wanted + ' events after 20 s'));
    }, 20000);
    const observer = new MutationObserver(() => {
      if (count() < wanted) return;
      observer.disconnect();
      // The frame in which they are painted.
      requestAnimationFrame(() => {
        const elapsed = performance.now() - started;
        clearTimeout(timer);
        const distinct = distinctTitles();
        if (distinct < wanted) reject(new Error('counted ' + count() + ' event elements but only ' + distinct + ' distinct titles'));
        else resolve(elapsed);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true });
    next.click();
  })`);
}

async function clickPrevious(page: Page): Promise<void> {
  await page.locator('.service-calendar button[title^="Prev"], .service-calendar button[aria-label^="Prev"]').first().click();
  await page.getByText(`${titlePrefix} 1`, { exact: true }).waitFor({ state: 'detached' });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!fs.existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath} (apt-get install -y chromium, or set CHROME_PATH).`);
  const server = await startFreshServer('calendar', args['database-url'], { ADMIN_EMAIL: benchAdmin.email, ADMIN_PASSWORD: benchAdmin.password });
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const cookie = await signIn(server);
    console.log(`Booking ${eventCount} appointments into the week of ${weekStart}...`);
    await bookWeek(server, cookie, eventCount);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/admin/calendar?date=${addDays(weekStart, -7)}&view=timeGridWeek`);
    await page.getByRole('heading', { name: 'Service Calendar', level: 1 }).waitFor();

    const firstVisits: number[] = [];
    const returnVisits: number[] = [];
    for (let run = 0; run <= runs; run += 1) {
      // A new page load each run, so the first visit really fetches.
      await page.reload();
      await page.getByRole('heading', { name: 'Service Calendar', level: 1 }).waitFor();
      await page.getByText('Loading calendar...').waitFor({ state: 'detached' }).catch(() => undefined);
      const first = await timeNext(page, eventCount);
      await clickPrevious(page);
      const again = await timeNext(page, eventCount);
      await clickPrevious(page);
      if (run === 0) continue; // warm-up
      firstVisits.push(first);
      returnVisits.push(again);
      console.log(`run ${run}: first visit ${fixed(first, 0)} ms, return visit ${fixed(again, 0)} ms`);
    }
    await context.close();

    const rows = [
      ['first visit (fetch + render)', fixed(median(firstVisits), 0), fixed(Math.max(...firstVisits), 0), median(firstVisits) <= targetMs ? 'ok' : 'MISSED'],
      ['return visit (render from cache)', fixed(median(returnVisits), 0), fixed(Math.max(...returnVisits), 0), median(returnVisits) <= targetMs ? 'ok' : 'MISSED'],
    ];
    console.log('');
    console.log(`Calendar week view with ${eventCount} events (${args['database-url'] ? 'PostgreSQL' : 'PGlite'}, 1440x900, Chromium ${browser.version()}), ${runs} runs after a warm-up:`);
    console.log(formatTable(['measurement', 'median ms', 'worst ms', `target (median <= ${targetMs} ms)`], rows));
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    fs.writeFileSync(
      resultsFile,
      `${JSON.stringify({ ranAt: new Date().toISOString(), events: eventCount, runs, targetMs, firstVisitsMs: firstVisits, returnVisitsMs: returnVisits }, null, 2)}\n`,
    );
    console.log(`Figures written to ${path.relative(projectRoot, resultsFile)}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\nCalendar benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
