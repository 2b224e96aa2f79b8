/**
 * Technician app benchmark (issue 19, decision 022-d), run by `npm run bench` after the others, or
 * alone with `npm run bench -- --only tech`, or:
 *
 *   npx tsx bench/tech.ts [--runs 7] [--actions 100] [--lighthouse-runs 3]
 *
 * 1. Starts the built server on a fresh temporary data dir (the embedded database) with the demo
 *    data (SEED_DEMO), and picks the demo technician with the most visits today; the admin sets
 *    that account's password through the staff API.
 * 2. In Debian's Chromium (CHROME_PATH, default /usr/bin/chromium), as a phone (412x915, touch,
 *    the business time zone) with the CPU slowed 4x through CDP (Emulation.setCPUThrottlingRate:
 *    standing for a mid-range phone), signs in and opens /tech online so the device's copy and the
 *    service worker are filled. Then, after a warm-up, `--runs` reloads with the network on (the
 *    baseline) and `--runs` with it off (`context.setOffline(true)`): navigation start to My day's
 *    `tech:day-ready` mark (visits painted and the main thread free: a tap is handled), each load
 *    also checked by a tap on "Tomorrow" that the page must answer.
 * 3. Offline, takes `--actions` actions through the visit screens (notes, checklist taps,
 *    inspection reports, spread over today's visits), goes online and times from the `online`
 *    event to "waiting to sync" gone, in the page. Verified on the server: every note once, and
 *    (after the server stops) exactly `--actions` rows in tech_actions for the technician.
 *    Baseline: the same actions POSTed by this script over HTTP, one after the other, chained.
 * 4. Lighthouse 12 (mobile, simulated throttling; performance and accessibility) on /tech, signed
 *    in through the session cookie in `extraHeaders`: one warm-up, then the median of
 *    `--lighthouse-runs` runs by performance score. Each run starts from empty storage (a first
 *    visit: no service worker, no device copy).
 *
 * Figures only: a missed bar is printed as MISSED and the exit code stays 0. Real errors (no build,
 * no Chromium, the server does not start, a mark never comes, actions lost or doubled) exit non-zero.
 * `--database-url` is accepted (the runner passes it to every benchmark) and ignored: the issue's
 * bars are for the embedded database.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { generateReport, type Result as LighthouseResult } from 'lighthouse';
import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { todayIn } from '#shared/dates.ts';
import { techMessages, type TechAction, type TechVisit } from '#shared/tech.ts';
import { openBenchDatabase } from './database.ts';
import { benchAdmin, fixed, formatTable, projectRoot, startBuiltServer, type ServerProcess } from './lib.ts';
import { auditFindings, figuresOf, medianRunIndex, type AuditFinding, type RunFigures } from './web-lib.ts';

const benchDataDir = path.join(projectRoot, 'bench/.data');
const resultsFile = path.join(benchDataDir, 'results-tech.json');
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const businessTimeZone = companyProfileFrom(companyEnvSchema.parse(process.env)).timeZone;
const technicianPassword = 'Attic-crawl-space-mechanical-42';
const cpuSlowdown = 4;
const phone = { viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true } as const;
const dayReadyMark = 'tech:day-ready';

/** Issue 19's bars. */
const bars = { dayOfflineMsMax: 1_000, syncMsMax: 5_000, performanceMin: 95, accessibilityMin: 100 } as const;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    actions: { type: 'string', default: '100' },
    'lighthouse-runs': { type: 'string', default: '3' },
    /** Which measurements to take (all by default): day, sync, lighthouse. */
    parts: { type: 'string', default: 'day,sync,lighthouse' },
    'database-url': { type: 'string' },
  },
});
const runs = Number(args.runs);
const actionCount = Number(args.actions);
const lighthouseRuns = Number(args['lighthouse-runs']);
const parts = new Set(args.parts.split(',').map((part) => part.trim()));
if ([...parts].some((part) => !['day', 'sync', 'lighthouse'].includes(part))) throw new Error('--parts is a comma-separated list of day, sync, lighthouse');
for (const [name, value] of [['--runs', runs], ['--actions', actionCount], ['--lighthouse-runs', lighthouseRuns]] as const) {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
}

// HTTP as the office and as the technician -------------------------------------------------------

type Session = { baseUrl: string; cookie: string };

async function signIn(baseUrl: string, email: string, password: string): Promise<Session> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`Sign-in of ${email} answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
  return { baseUrl, cookie };
}

async function call<T>(session: Session, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${session.baseUrl}${url}`, {
    method,
    headers: { cookie: session.cookie, origin: session.baseUrl, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function expectOk<T>(session: Session, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await call<T>(session, method, url, body);
  if (answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

type Technician = { email: string; staffUserId: string; name: string; visitsToday: TechVisit[]; visits: TechVisit[]; session: Session };

/** The demo technician with the most visits today (each demo technician has a sign-in; the admin sets its password). */
async function pickTechnician(admin: Session, today: string): Promise<Technician> {
  const { staff } = await expectOk<{ staff: { id: string; email: string; name: string; role: string; active: boolean }[] }>(admin, 'GET', '/api/admin/settings/staff');
  let best: Technician | undefined;
  for (const account of staff.filter((member) => member.role === 'technician' && member.active)) {
    await expectOk(admin, 'POST', `/api/admin/settings/staff/${account.id}/password`, { setup: 'password', password: technicianPassword });
    const session = await signIn(admin.baseUrl, account.email, technicianPassword);
    const { visits } = await expectOk<{ visits: TechVisit[] }>(session, 'GET', `/api/tech/visits?from=${today}&days=3`);
    const visitsToday = visits.filter((visit) => visit.serviceDate === today && visit.status !== 'completed' && visit.status !== 'cancelled');
    if (!best || visitsToday.length > best.visitsToday.length) best = { email: account.email, staffUserId: account.id, name: account.name, visitsToday, visits, session };
  }
  if (!best || best.visitsToday.length === 0) throw new Error('No demo technician has an open visit today (SEED_DEMO gives each one 3 to 5).');
  return best;
}

// The phone ---------------------------------------------------------------------------------------

/**
 * Sets the page's CPU slowdown (1: none, and no CDP session). A CDP session of our own on the page
 * makes the documents it then loads report `navigator.onLine` true with the context offline (seen
 * with Chromium 156 and Playwright: no `online` event when the network returns, so the app only
 * sent after its first retry, 2 s later), so the session lives only while the CPU is slowed: the
 * actions are taken without it, and it is opened on the page that syncs.
 */
async function cpuThrottle(context: BrowserContext, page: Page): Promise<(rate: number) => Promise<void>> {
  let cdp: CDPSession | undefined;
  return async (rate) => {
    if (rate === 1) {
      await cdp?.send('Emulation.setCPUThrottlingRate', { rate });
      await cdp?.detach();
      cdp = undefined;
      return;
    }
    cdp ??= await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  };
}

type LoadFigures = { dayReadyMs: number; tapMs: number };

/** Reloads /tech and reads the day-ready mark; then a tap on "Tomorrow" must be answered (and "Today" again). */
async function measureDayLoad(page: Page, offline: boolean): Promise<LoadFigures> {
  await page.reload();
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, dayReadyMark, { timeout: 30_000, polling: 50 });
  const dayReadyMs = await page.evaluate((name) => performance.getEntriesByName(name)[0]!.startTime, dayReadyMark);
  if (offline && !(await page.getByText('Offline', { exact: true }).isVisible())) throw new Error('The page does not say Offline with the network off.');
  if (!(await page.getByRole('region', { name: 'Next visit' }).isVisible())) throw new Error('The next visit is not shown on My day.');
  const tapStarted = performance.now();
  const tomorrow = page.getByRole('navigation', { name: 'Days' }).getByRole('button', { name: /^Tomorrow/ });
  await tomorrow.click();
  await page.waitForFunction(() => document.querySelector('nav[aria-label="Days"] button[aria-pressed="true"]')?.textContent?.startsWith('Tomorrow') === true, undefined, { timeout: 10_000, polling: 'raf' });
  const tapMs = performance.now() - tapStarted;
  await page.getByRole('navigation', { name: 'Days' }).getByRole('button', { name: /^Today/ }).click();
  return { dayReadyMs, tapMs };
}

type Plan = { visitId: string; kind: 'note' | 'task' | 'inspection'; text?: string; taskId?: string; mca?: number };

/** `count` actions over the visits: a block per visit; every 5th a checklist tap (when the job has tasks), every 10th an inspection report, notes otherwise. */
function planActions(visits: TechVisit[], count: number, label: string): Plan[] {
  const plans: Plan[] = [];
  const perVisit = Math.ceil(count / visits.length);
  for (const [visitIndex, visit] of visits.entries()) {
    for (let index = 0; index < perVisit && plans.length < count; index += 1) {
      const number = plans.length + 1;
      if (index % 10 === 9) plans.push({ visitId: visit.id, kind: 'inspection', mca: 10 + number / 10 });
      else if (index % 5 === 4 && visit.tasks.length > 0) plans.push({ visitId: visit.id, kind: 'task', taskId: visit.tasks[Math.floor(index / 5) % visit.tasks.length]!.id });
      else plans.push({ visitId: visit.id, kind: 'note', text: `${label} note ${number} on visit ${visitIndex + 1}` });
    }
  }
  return plans;
}

/** Takes the planned actions on the visit screens (the network is off), one by one, each counted in "waiting to sync". */
async function takeActionsInTheApp(page: Page, plans: Plan[], visitsById: Map<string, TechVisit>): Promise<void> {
  const waiting = page.getByTestId('waiting-to-sync');
  let currentVisit: string | undefined;
  for (const [index, plan] of plans.entries()) {
    if (plan.visitId !== currentVisit) {
      await page.goto(`/tech/visits/${encodeURIComponent(plan.visitId)}`);
      await page.getByRole('button', { name: 'Add note' }).waitFor();
      currentVisit = plan.visitId;
    }
    if (plan.kind === 'note') {
      await page.getByLabel('New note').fill(plan.text!);
      await page.getByRole('button', { name: 'Add note' }).click();
    } else if (plan.kind === 'task') {
      const visit = visitsById.get(plan.visitId)!;
      const taskName = visit.tasks.find((task) => task.id === plan.taskId)!.taskName;
      await page.getByRole('region', { name: 'Tasks' }).getByRole('checkbox', { name: taskName, exact: true }).click();
    } else {
      await page.getByLabel('MCA (A)').fill(String(plan.mca));
      await page.getByRole('button', { name: 'Save Inspection Report' }).click();
    }
    await waiting.filter({ hasText: techMessages.waitingToSync(index + 1) }).waitFor({ timeout: 10_000 });
  }
}

/** What the device's queue holds (states and the server's refusals), for an error message. */
async function describeQueue(page: Page): Promise<string> {
  return page.evaluate<string>(`new Promise((resolve) => {
    const open = indexedDB.open('hvac-tech');
    open.onsuccess = () => {
      const request = open.result.transaction('queue').objectStore('queue').getAll();
      request.onsuccess = () => {
        const counts = {};
        for (const item of request.result) {
          const key = item.action.kind + ' ' + item.state + (item.error ? ' (' + item.error + ')' : '');
          counts[key] = (counts[key] || 0) + 1;
        }
        resolve(JSON.stringify(counts));
      };
      request.onerror = () => resolve('queue unreadable');
    };
    open.onerror = () => resolve('database unreadable');
  })`);
}

/** The same kinds of action POSTed over HTTP one after the other, each on the version the last answer gave (the app's chain). */
async function postActions(session: Session, plans: Plan[]): Promise<number> {
  const versions = new Map<string, TechVisit>();
  const { visits } = await expectOk<{ visits: TechVisit[] }>(session, 'GET', `/api/tech/visits?from=${todayIn(businessTimeZone)}&days=3`);
  for (const visit of visits) versions.set(visit.id, visit);
  const started = performance.now();
  for (const plan of plans) {
    const visit = versions.get(plan.visitId)!;
    const base = { idempotencyKey: randomUUID(), baseUpdatedAt: visit.updatedAt, takenAt: new Date().toISOString() };
    let action: TechAction;
    if (plan.kind === 'note') action = { ...base, kind: 'note', text: plan.text! };
    else if (plan.kind === 'task') {
      const task = visit.tasks.find((candidate) => candidate.id === plan.taskId)!;
      action = { ...base, kind: 'task', taskId: task.id, status: task.status === 'completed' ? 'pending' : 'completed' };
    } else action = { ...base, kind: 'inspection', report: { mca: plan.mca!, mocp: null, tempSplit: null, staticPressure: null, inspectionItems: [] } };
    const answer = await expectOk<{ visit: TechVisit; applied: boolean }>(session, 'POST', `/api/tech/visits/${encodeURIComponent(plan.visitId)}/actions`, action);
    if (!answer.applied) throw new Error(`A fresh action was answered applied: false (${plan.kind}).`);
    versions.set(plan.visitId, answer.visit);
  }
  return performance.now() - started;
}

// Lighthouse ---------------------------------------------------------------------------------------

type LighthouseRun = { figures: RunFigures; lhr: LighthouseResult };

async function runLighthouse(port: number, url: string, cookie: string): Promise<LighthouseRun> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], extraHeaders: { Cookie: cookie } });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}.`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
  if (!result.lhr.finalDisplayedUrl.includes('/tech')) throw new Error(`Lighthouse ended on ${result.lhr.finalDisplayedUrl}, not /tech: the session cookie was not taken.`);
  return { figures: figuresOf(result.lhr), lhr: result.lhr };
}

// Main -----------------------------------------------------------------------------------------------

function percentileOf(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const verdict = (met: boolean, measured = true) => (!measured ? 'not run' : met ? 'ok' : 'MISSED');

let server: ServerProcess | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;

async function main(): Promise<void> {
  if (!fs.existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath} (apt-get install -y chromium, or set CHROME_PATH).`);
  if (args['database-url']) console.log('Technician app benchmark: --database-url ignored; the issue\'s bars are for the embedded database (PGlite).');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-tech-bench-'));
  try {
    server = await startBuiltServer(dataDir, { SEED_DEMO: 'true', ADMIN_EMAIL: benchAdmin.email, ADMIN_PASSWORD: benchAdmin.password }, 120_000);
    const today = todayIn(businessTimeZone);
    const admin = await signIn(server.baseUrl, benchAdmin.email, benchAdmin.password);
    const technician = await pickTechnician(admin, today);
    console.log(
      `Technician app benchmark: ${technician.name}, ${technician.visitsToday.length} open visits today and ${technician.visits.length} in the next 3 days (demo data, PGlite, ${businessTimeZone}).`,
    );

    // 2. My day offline -----------------------------------------------------------------------------
    const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const chromiumVersion = browser.version();
    const online: LoadFigures[] = [];
    const offline: LoadFigures[] = [];
    let syncMs: number;
    let plans: Plan[];
    let syncTimeline: { firstRequestMs: number; lastAnswerMs: number; requests: number } | undefined;
    try {
      const context = await browser.newContext({ ...phone, timezoneId: businessTimeZone, baseURL: server.baseUrl });
      const page = await context.newPage();
      await page.goto('/tech');
      await page.getByLabel('Email').fill(technician.email);
      await page.getByLabel('Password').fill(technicianPassword);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(/\/tech$/);
      await page.getByRole('region', { name: 'Next visit' }).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000, polling: 100 });
      const setCpuRate = await cpuThrottle(context, page);
      await setCpuRate(cpuSlowdown);

      if (parts.has('day')) await measureDayLoad(page, false); // warm-up: the worker's cache, the chunks' first compile
      for (let run = 1; parts.has('day') && run <= runs; run += 1) {
        const figures = await measureDayLoad(page, false);
        online.push(figures);
        console.log(`online  run ${run}: My day ready ${fixed(figures.dayReadyMs, 0)} ms after navigation start (a tap answered in ${fixed(figures.tapMs, 0)} ms)`);
      }
      await context.setOffline(true);
      if (parts.has('day')) await measureDayLoad(page, true); // warm-up offline
      for (let run = 1; parts.has('day') && run <= runs; run += 1) {
        const figures = await measureDayLoad(page, true);
        offline.push(figures);
        console.log(`offline run ${run}: My day ready ${fixed(figures.dayReadyMs, 0)} ms after navigation start (a tap answered in ${fixed(figures.tapMs, 0)} ms)`);
      }

      // 3. Queued actions, synced ---------------------------------------------------------------------
      plans = parts.has('sync') ? planActions(technician.visitsToday, actionCount, 'Bench app') : [];
      syncMs = Number.NaN;
      if (plans.length > 0) {
      console.log(`Taking ${plans.length} actions offline in the app (${['note', 'task', 'inspection'].map((kind) => `${plans.filter((plan) => plan.kind === kind).length} ${kind}`).join(', ')})...`);
      // Taking the actions is not what is measured: the phone's full speed, then slowed again for the sync.
      await setCpuRate(1);
      await takeActionsInTheApp(page, plans, new Map(technician.visitsToday.map((visit) => [visit.id, visit])));
      await page.goto('/tech');
      await page.getByTestId('waiting-to-sync').filter({ hasText: techMessages.waitingToSync(plans.length) }).waitFor();
      await setCpuRate(cpuSlowdown);
      // From the network's return (as the bench gives it back) to "waiting to sync" gone from the page.
      // Where the time goes: the first action request (how soon the app starts) and the last answer.
      const actionTimes: { sent: number[]; answered: number[] } = { sent: [], answered: [] };
      const isAction = (url: string) => /\/api\/tech\/visits\/[^/]+\/actions(?:\/batch)?$/.test(url);
      page.on('request', (request) => {
        if (isAction(request.url())) actionTimes.sent.push(performance.now());
      });
      page.on('requestfinished', (request) => {
        if (isAction(request.url())) actionTimes.answered.push(performance.now());
      });
      const apiLog: string[] = [];
      let wallStarted = performance.now();
      page.on('request', (request) => {
        if (request.url().includes('/api/') && !isAction(request.url())) apiLog.push(`${fixed(performance.now() - wallStarted, 0)} ms ${request.method()} ${request.url().replace(/^https?:\/\/[^/]+/, '')}`);
      });
      page.on('requestfailed', (request) => {
        if (request.url().includes('/api/')) apiLog.push(`${fixed(performance.now() - wallStarted, 0)} ms FAILED ${request.url().replace(/^https?:\/\/[^/]+/, '')}: ${request.failure()?.errorText}`);
      });
      page.on('console', (message) => apiLog.push(`${fixed(performance.now() - wallStarted, 0)} ms console ${message.text()}`));
      if (process.env.TECH_BENCH_DEBUG) {
        // Where the page's own time goes after the network returns: the online event and each fetch, in the page's clock.
        // A string, not a function: tsx's name helper does not exist in the page.
        await page.evaluate(`(() => {
          const started = performance.now();
          const stamp = (what) => console.log('page +' + Math.round(performance.now() - started) + ' ms ' + what);
          stamp('navigator.onLine ' + navigator.onLine);
          window.addEventListener('online', () => stamp('online event'));
          window.addEventListener('offline', () => stamp('offline event'));
          const original = window.fetch;
          window.fetch = async (...args) => {
            const url = String(args[0] instanceof Request ? args[0].url : args[0]);
            stamp('fetch ' + url);
            try {
              const response = await original(...args);
              stamp('answer ' + response.status + ' ' + url);
              return response;
            } catch (error) {
              stamp('fetch failed ' + url + ': ' + String(error));
              throw error;
            }
          };
        })()`);
      }
      // The app starts sending on the browser's `online` event, as on a phone: the page must know it is offline.
      if (await page.evaluate('navigator.onLine')) console.log('  Warning: the page reports navigator.onLine with the network off; it will see no online event.');
      wallStarted = performance.now();
      await context.setOffline(false);
      const emptied = await page
        .waitForFunction(() => document.querySelector('[data-testid="waiting-to-sync"]') === null, undefined, { timeout: 120_000, polling: 50 })
        .then(() => true)
        .catch(() => false);
      syncMs = performance.now() - wallStarted;
      if (!emptied) throw new Error(`The queue did not empty within 2 minutes of going online: ${await describeQueue(page)}`);
      if (process.env.TECH_BENCH_DEBUG) console.log(apiLog.slice(0, 60).join('\n'));
      syncTimeline = {
        firstRequestMs: (actionTimes.sent[0] ?? Number.NaN) - wallStarted,
        lastAnswerMs: (actionTimes.answered.at(-1) ?? Number.NaN) - wallStarted,
        requests: actionTimes.sent.length,
      };
      console.log(
        `${plans.length} queued actions synced ${fixed(syncMs, 0)} ms after the network came back (first action sent after ${fixed(syncTimeline.firstRequestMs, 0)} ms, ` +
          `last answered after ${fixed(syncTimeline.lastAnswerMs, 0)} ms, ${syncTimeline.requests} requests)`,
      );
      }
      await context.close();
    } finally {
      await browser.close();
    }

    // Every note once on the server.
    const { visits: after } = await expectOk<{ visits: TechVisit[] }>(technician.session, 'GET', `/api/tech/visits?from=${today}&days=3`);
    const notes = after.flatMap((visit) => visit.notes.map((note) => note.text));
    for (const plan of plans.filter((item) => item.kind === 'note')) {
      const copies = notes.filter((text) => text === plan.text).length;
      if (copies !== 1) throw new Error(`"${plan.text}" is on the server ${copies} times, not once.`);
    }

    // Baseline: the same actions straight over HTTP.
    const baselinePlans = parts.has('sync') ? planActions(technician.visitsToday, actionCount, 'Bench HTTP') : [];
    const httpMs = baselinePlans.length > 0 ? await postActions(technician.session, baselinePlans) : Number.NaN;
    if (baselinePlans.length > 0) console.log(`${baselinePlans.length} actions POSTed in order over HTTP by the bench: ${fixed(httpMs, 0)} ms`);

    // 4. Lighthouse -----------------------------------------------------------------------------------
    const session = await signIn(server.baseUrl, technician.email, technicianPassword);
    const lighthouseResults: LighthouseRun[] = [];
    const techUrl = `${server.baseUrl}/tech`;
    if (parts.has('lighthouse')) {
      chrome = await chromeLauncher.launch({ chromePath, chromeFlags, handleSIGINT: false, logLevel: 'silent' });
      console.log('Lighthouse warm-up run on /tech...');
      await runLighthouse(chrome.port, techUrl, session.cookie);
    }
    for (let run = 1; chrome && run <= lighthouseRuns; run += 1) {
      const result = await runLighthouse(chrome.port, techUrl, session.cookie);
      lighthouseResults.push(result);
      const { figures } = result;
      console.log(
        `Lighthouse /tech run ${run}/${lighthouseRuns}: performance ${figures.scores.performance ?? 'n/a'}, accessibility ${figures.scores.accessibility ?? 'n/a'}, ` +
          `LCP ${fixed((figures.lcpMs ?? Number.NaN) / 1000, 2)} s, TBT ${fixed(figures.tbtMs, 0)} ms, scripts ${fixed(figures.scriptTransferBytes / 1024, 0)} KB`,
      );
    }
    chrome?.kill();
    chrome = undefined;
    const lighthouseFigures = lighthouseResults.map((result) => result.figures);
    const medianIndex = lighthouseFigures.length > 0 ? medianRunIndex(lighthouseFigures) : -1;
    const notRun: RunFigures = {
      scores: { performance: null, accessibility: null, 'best-practices': null, seo: null },
      lcpMs: undefined,
      cls: undefined,
      tbtMs: undefined,
      fcpMs: undefined,
      speedIndexMs: undefined,
      scripts: [],
      failedRequests: [],
      scriptTransferBytes: Number.NaN,
      scriptResourceBytes: Number.NaN,
    };
    const median = lighthouseFigures[medianIndex] ?? notRun;
    const findings: AuditFinding[] = medianIndex >= 0 ? auditFindings(lighthouseResults[medianIndex]!.lhr).failing : [];
    const lighthouseVersion = medianIndex >= 0 ? lighthouseResults[medianIndex]!.lhr.lighthouseVersion : 'not run';
    const reportFile = path.join(benchDataDir, 'lighthouse', 'tech.html');
    if (medianIndex >= 0) {
      fs.mkdirSync(path.dirname(reportFile), { recursive: true });
      fs.writeFileSync(reportFile, generateReport(lighthouseResults[medianIndex]!.lhr, 'html'));
      fs.writeFileSync(reportFile.replace(/\.html$/, '.json'), JSON.stringify(lighthouseResults[medianIndex]!.lhr));
    }

    await server.stop();
    server = undefined;
    // Exactly once: the server's record of applied actions (tech_actions), read after the server stopped.
    const database = await openBenchDatabase({ kind: 'pglite', dataDir });
    let recorded: number;
    try {
      const [row] = await database.query<{ count: number }>('select count(*)::int as count from tech_actions where staff_user_id = $1', [technician.staffUserId]);
      recorded = row?.count ?? 0;
    } finally {
      await database.close();
    }
    const expected = plans.length + baselinePlans.length;
    if (recorded !== expected) throw new Error(`tech_actions holds ${recorded} of the technician's actions, not ${expected}: some were lost or applied twice.`);

    // Report ---------------------------------------------------------------------------------------------
    const offlineReady = offline.map((figures) => figures.dayReadyMs);
    const onlineReady = online.map((figures) => figures.dayReadyMs);
    const offlineMedian = percentileOf(offlineReady, 50);
    const offlineP95 = percentileOf(offlineReady, 95);
    const onlineMedian = percentileOf(onlineReady, 50);
    const performanceScore = median.scores.performance ?? Number.NaN;
    const accessibilityScore = median.scores.accessibility ?? Number.NaN;
    const met = {
      dayOffline: offlineP95 < bars.dayOfflineMsMax,
      sync: syncMs < bars.syncMsMax,
      performance: performanceScore >= bars.performanceMin,
      accessibility: accessibilityScore >= bars.accessibilityMin,
    };
    const ratio = (value: number, base: number) => (base > 0 ? `${fixed(value / base, 2)}x` : '');
    console.log('');
    console.log(
      `Technician app (/tech), PGlite, ${phone.viewport.width}x${phone.viewport.height} phone in Chromium ${chromiumVersion} with the CPU slowed ${cpuSlowdown}x ` +
        `(CDP Emulation.setCPUThrottlingRate, standing for a mid-range phone); ${runs} loads each after a warm-up; Lighthouse ${lighthouseVersion} mobile, median of ${lighthouseRuns} after a warm-up:`,
    );
    console.log(
      formatTable(
        ['measurement', 'figure', 'bar', 'verdict', 'baseline (same run)', 'ratio'],
        [
          [
            'My day interactive offline (p95; median)',
            `${fixed(offlineP95, 0)} ms; ${fixed(offlineMedian, 0)} ms`,
            `< ${bars.dayOfflineMsMax} ms`,
            verdict(met.dayOffline, offline.length > 0),
            `online load median ${fixed(onlineMedian, 0)} ms`,
            ratio(offlineMedian, onlineMedian),
          ],
          [
            `${plans.length} queued actions synced`,
            `${fixed(syncMs, 0)} ms`,
            `< ${bars.syncMsMax} ms`,
            verdict(met.sync, plans.length > 0),
            `POSTed by the bench ${fixed(httpMs, 0)} ms`,
            ratio(syncMs, httpMs),
          ],
          ['Lighthouse performance', String(performanceScore), `>= ${bars.performanceMin}`, verdict(met.performance, medianIndex >= 0), '', ''],
          ['Lighthouse accessibility', String(accessibilityScore), `>= ${bars.accessibilityMin}`, verdict(met.accessibility, medianIndex >= 0), '', ''],
          ['  LCP / TBT / CLS', `${fixed((median.lcpMs ?? Number.NaN) / 1000, 2)} s / ${fixed(median.tbtMs, 0)} ms / ${fixed(median.cls, 3)}`, '', '', '', ''],
          ['  scripts on the wire', `${fixed(median.scriptTransferBytes / 1024, 1)} KB in ${median.scripts.length}`, '', '', '', ''],
          ['  tap answered after ready (offline median)', `${fixed(percentileOf(offline.map((figures) => figures.tapMs), 50), 0)} ms`, '', '', '', ''],
        ],
      ),
    );
    console.log(`  Every queued note arrived once; tech_actions holds exactly ${recorded} actions of the technician (${plans.length} from the app, ${baselinePlans.length} from the baseline).`);
    if (findings.length > 0) {
      console.log(`  Lighthouse audits below 0.9 in the median run (report: ${path.relative(projectRoot, reportFile)}):`);
      for (const finding of findings) console.log(`    [${finding.categories.join(',') || 'no category'}] ${finding.title}${finding.displayValue ? ` — ${finding.displayValue}` : ''} (${finding.id})${finding.examples.length > 0 ? `: ${finding.examples.join('; ')}` : ''}`);
    }

    fs.mkdirSync(benchDataDir, { recursive: true });
    const rounded = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value);
    fs.writeFileSync(
      resultsFile,
      `${JSON.stringify(
        {
          ranAt: new Date().toISOString(),
          database: 'PGlite',
          machine: { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model, loadAverage: os.loadavg() },
          phone: { ...phone, cpuSlowdown, chromium: chromiumVersion, timeZone: businessTimeZone },
          bars,
          met,
          dayInteractive: { runs, offlineMs: offlineReady, onlineMs: onlineReady, offlineMedianMs: offlineMedian, offlineP95Ms: offlineP95, onlineMedianMs: onlineMedian, tapMs: offline.map((figures) => figures.tapMs) },
          sync: { actions: plans.length, kinds: Object.fromEntries(['note', 'task', 'inspection'].map((kind) => [kind, plans.filter((plan) => plan.kind === kind).length])), syncMs, timeline: syncTimeline, httpBaselineMs: httpMs, recordedActions: recorded },
          lighthouse: { version: lighthouseVersion, runs: lighthouseFigures, medianRun: medianIndex, failingAudits: findings },
        },
        rounded,
        2,
      )}\n`,
    );
    console.log(`Figures written to ${path.relative(projectRoot, resultsFile)}`);
  } finally {
    chrome?.kill();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

process.once('exit', () => {
  chrome?.kill();
  server?.signalStop();
});
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    chrome?.kill();
    void (server?.stop() ?? Promise.resolve()).finally(() => process.exit(code));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`\nTechnician app benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
