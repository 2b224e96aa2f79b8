/**
 * Public-page benchmark (DESIGN.md section 7), run by `npm run bench:web`:
 *
 *   npx tsx bench/web.ts [--pages /,/estimate,/MaintenancePlan] [--runs 3]
 *
 * 1. Copies build/client to a temporary folder (so a concurrent build cannot pull assets from under
 *    the pages) and sums, per prerendered HTML file, the gzip size (level 9) of each <script src>
 *    and <link rel="modulepreload"> target plus its inline scripts: the public JavaScript before
 *    interaction, computed statically.
 * 2. Starts the built server (build/node/main.mjs) on a fresh temporary data dir, serving that copy,
 *    and checks that each page and its assets answer 200, and whether they come back compressed.
 * 3. Launches Debian's Chromium once (CHROME_PATH, default /usr/bin/chromium) and runs Lighthouse
 *    12 with its default config (mobile, simulated throttling) `--runs` times per page, after one
 *    unmeasured warm-up run. A run that fails as a whole is retried in a fresh Chromium.
 * 4. Takes each page's median run by performance score and prints its scores and metrics, the
 *    script bytes Lighthouse saw on the wire beside the static figure, the bars, and the audits
 *    that score below 0.9. Writes bench/.data/results-web.json and the median runs' HTML reports.
 *
 * Figures only: a missed bar is printed as MISSED and the exit code stays 0. Real errors (no build,
 * no Chromium, the server does not start, a page does not answer 200, a Lighthouse run fails as a
 * whole three times) exit non-zero. Audits that error (e.g. for want of the network) are reported, not fatal.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { generateReport, type Result as LighthouseResult } from 'lighthouse';
import { fixed, formatTable, serverEntry, startBuiltServer, type ServerProcess } from './lib.ts';
import {
  auditFindings,
  buildStamp,
  categoryIds,
  describeInspectorIssues,
  fallbackPageLabel,
  figuresOf,
  kilobyte,
  listHtmlFiles,
  medianRunIndex,
  staticPageJs,
  type AuditFinding,
  type CategoryId,
  type RunFigures,
  type StaticPageJs,
} from './web-lib.ts';

// Settings ---------------------------------------------------------------------------------------

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDataDir = path.join(projectRoot, 'bench/.data');
const clientDir = path.join(projectRoot, 'build/client');
const resultsFile = path.join(benchDataDir, 'results-web.json');
const reportsDir = path.join(benchDataDir, 'lighthouse');
const host = '127.0.0.1';

const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
/** DESIGN.md section 2: without the networking flags Chromium keeps trying to reach the closed network. */
const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * DESIGN.md section 7 and issue 17 item 6. Scores 0-100, LCP and FCP in ms, public JavaScript in
 * bytes (gzip): what a page loads without interaction (the issue's bar is for `/`; the pages with a
 * form start the app after the load event, decision 020-f).
 */
const bars = {
  performanceScoreMin: 99,
  categoryScoreMin: 98,
  lcpMsMax: 1500,
  fcpMsMax: 1200,
  clsMax: 0,
  publicJsBytesMax: 60 * kilobyte,
  publicJsBytesAim: 50 * kilobyte,
} as const;

const scoreBar = (id: CategoryId) => (id === 'performance' ? bars.performanceScoreMin : bars.categoryScoreMin);

const categoryLabels: Record<CategoryId, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};

const usage = 'Usage: npx tsx bench/web.ts [--pages /,/estimate,/MaintenancePlan] [--runs 3]';

type Options = { pages: string[]; runs: number };

function parseOptions(): Options {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        pages: { type: 'string', default: '/,/estimate,/MaintenancePlan' },
        runs: { type: 'string', default: '3' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const pages = [...new Set(values.pages.split(',').map((page) => page.trim()).filter(Boolean))];
  if (pages.length === 0 || pages.some((page) => !page.startsWith('/'))) {
    throw new UsageError(`--pages must be a comma-separated list of paths starting with / (got "${values.pages}").\n${usage}`);
  }
  const runs = Number(values.runs);
  if (!/^\d+$/.test(values.runs.trim()) || !Number.isSafeInteger(runs) || runs < 1) {
    throw new UsageError(`--runs must be a whole number >= 1 (got "${values.runs}").\n${usage}`);
  }
  return { pages, runs };
}

class UsageError extends Error {}

// Child processes and clean-up -----------------------------------------------------------------

let runningServer: ServerProcess | undefined;
let runningChrome: chromeLauncher.LaunchedChrome | undefined;
/** Holds the server's empty data dir and the snapshot of build/client it serves; removed at the end. */
let temporaryDir: string | undefined;

async function startBenchServer(dataDir: string, servedClientDir: string): Promise<ServerProcess> {
  console.log(`Starting the server on ${host} (empty data dir ${dataDir})...`);
  // Whatever the calling shell has set, this run is the embedded database with no staff.
  // A loaded machine (other builds and tests) can take more than the default 30 s to migrate and seed.
  const server = await startBuiltServer(dataDir, { CLIENT_DIR: servedClientDir, ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }, 120_000);
  runningServer = server;
  return server;
}

/** Set when the benchmark is shutting down: no Chromium is launched after that. */
let stopping = false;

class StoppingError extends Error {
  constructor() {
    super('The benchmark is stopping.');
  }
}

async function stopEverything(): Promise<void> {
  stopping = true;
  const chrome = runningChrome;
  runningChrome = undefined;
  chrome?.kill();
  const server = runningServer;
  runningServer = undefined;
  await server?.stop();
  if (temporaryDir) {
    fs.rmSync(temporaryDir, { recursive: true, force: true });
    temporaryDir = undefined;
  }
}

// Step 1: a snapshot of the build -----------------------------------------------------------------

/**
 * Copies build/client to `target` and reads every HTML file's JavaScript there. The server serves
 * the copy, so a build started meanwhile (another engineer's, a test run's) cannot pull assets from
 * under the pages. A copy taken while a build was writing (the tree changed during the copy, or an
 * HTML file references a file the copy lacks) is taken again, up to five times.
 */
async function snapshotClient(target: string): Promise<{ staticJs: StaticPageJs[]; stamp: string; attempts: number }> {
  const attempts = 5;
  for (let attempt = 1; ; attempt += 1) {
    let stable = false;
    let stamp = '';
    let staticJs: StaticPageJs[] = [];
    try {
      fs.rmSync(target, { recursive: true, force: true });
      stamp = buildStamp(clientDir);
      fs.cpSync(clientDir, target, { recursive: true });
      staticJs = listHtmlFiles(target).map((file) => staticPageJs(target, file));
      stable = buildStamp(clientDir) === stamp && staticJs.every((entry) => entry.scripts.every((script) => !script.missing));
    } catch {
      // A file or folder vanished mid-copy: a build is under way.
    }
    if (stable || attempt === attempts) {
      if (!stable) console.warn('Warning: build/client kept changing while it was copied (a build running?); measuring the last copy.');
      if (staticJs.length === 0) throw new Error('No HTML found in build/client (a build running?): run the benchmark again.');
      return { staticJs, stamp, attempts: attempt };
    }
    console.log('build/client is changing (a build running?); copying it again in 3 s...');
    await sleep(3000);
  }
}

// Step 2: the pages answer, and how they are encoded ---------------------------------------------

type EncodingProbe = { url: string; kind: 'html' | 'js' | 'css' | 'other'; status: number; contentType: string; contentEncoding: string | undefined; bodyBytes: number };

/** What Chrome sends; the answer's content-encoding says whether the server compressed. */
const acceptEncoding = 'gzip, deflate, br, zstd';

function probe(url: string): Promise<EncodingProbe> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'accept-encoding': acceptEncoding }, timeout: 10_000 }, (response) => {
      let bodyBytes = 0;
      response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      response.on('end', () => {
        const contentType = String(response.headers['content-type'] ?? '');
        const kind = /html/.test(contentType) ? 'html' : /javascript/.test(contentType) ? 'js' : /css/.test(contentType) ? 'css' : 'other';
        const encoding = response.headers['content-encoding'];
        resolve({ url, kind, status: response.statusCode ?? 0, contentType, contentEncoding: encoding && encoding !== 'identity' ? encoding : undefined, bodyBytes });
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

/** Every answer probed in this run, by URL (pages, their scripts and stylesheets, scripts Lighthouse saw). */
const probes = new Map<string, EncodingProbe>();

/** GET once per URL; a non-200 answer is an error unless `tolerant` (then it is returned, not kept). */
async function probeOnce(url: string, tolerant = false): Promise<EncodingProbe> {
  const known = probes.get(url);
  if (known) return known;
  const answer = await probe(url);
  if (answer.status !== 200) {
    if (tolerant) return answer;
    throw new Error(`GET ${url} answered ${answer.status}.`);
  }
  probes.set(url, answer);
  return answer;
}

/** Before Lighthouse: each page answers 200, and so does everything its HTML references. */
async function checkPages(baseUrl: string, pages: string[], staticByPage: Map<string, StaticPageJs>): Promise<void> {
  for (const page of pages) {
    const pageUrl = new URL(page, baseUrl).href;
    await probeOnce(pageUrl);
    const built = staticByPage.get(pageKey(page)) ?? staticByPage.get(fallbackKey);
    const assets = [...(built?.scripts.filter((script) => !script.missing).map((script) => script.url) ?? []), ...(built?.stylesheets ?? [])];
    for (const asset of assets) await probeOnce(new URL(asset, pageUrl).href);
  }
}

/** Responses under this size are left uncompressed by most servers, and Lighthouse ignores them (1400 B). */
const smallResponseBytes = 1024;

type CompressionSummary = Record<'html' | 'js' | 'css', { responses: number; compressed: number; encodings: string[] }> & {
  requestedWith: string;
  /** Uncompressed HTML/JS/CSS answers of at least smallResponseBytes: these matter. */
  uncompressedLarge: { url: string; bytes: number }[];
  /** Uncompressed but small. */
  uncompressedSmall: { url: string; bytes: number }[];
  probes: EncodingProbe[];
};

function summarizeCompression(): CompressionSummary {
  const all = [...probes.values()];
  const summarize = (kind: 'html' | 'js' | 'css') => {
    const ofKind = all.filter((entry) => entry.kind === kind);
    const encodings = [...new Set(ofKind.map((entry) => entry.contentEncoding).filter((encoding): encoding is string => Boolean(encoding)))];
    return { responses: ofKind.length, compressed: ofKind.filter((entry) => entry.contentEncoding).length, encodings };
  };
  const uncompressed = all.filter((entry) => entry.kind !== 'other' && !entry.contentEncoding).map((entry) => ({ url: entry.url, bytes: entry.bodyBytes }));
  return {
    html: summarize('html'),
    js: summarize('js'),
    css: summarize('css'),
    requestedWith: acceptEncoding,
    uncompressedLarge: uncompressed.filter((entry) => entry.bytes >= smallResponseBytes),
    uncompressedSmall: uncompressed.filter((entry) => entry.bytes < smallResponseBytes),
    probes: all,
  };
}

// Step 3: Lighthouse -----------------------------------------------------------------------------

/** The running Chromium, launched on first use (and again after a failed run). */
async function chromePort(): Promise<number> {
  if (stopping) throw new StoppingError();
  if (!runningChrome) {
    // handleSIGINT off: this script stops the server and Chrome itself on SIGINT.
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: [...chromeFlags], handleSIGINT: false, logLevel: 'silent' });
    if (stopping) {
      // Stopped while Chromium was starting: it would outlive the benchmark.
      chrome.kill();
      throw new StoppingError();
    }
    runningChrome = chrome;
    console.log(`Chromium ${chromePath} started on debugging port ${chrome.port}.`);
  }
  return runningChrome.port;
}

type LighthouseRun = { lhr: LighthouseResult; figures: RunFigures; inspectorIssues: string[] };

/** One Lighthouse navigation with the default config (mobile, simulated throttling). */
async function runLighthouseOnce(url: string, onlyCategories?: string[]): Promise<LighthouseRun> {
  const port = await chromePort();
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', ...(onlyCategories ? { onlyCategories } : {}) });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}.`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  // The lhr says only "Content security policy" for a DevTools issue; the artifact says which.
  return { lhr, figures: figuresOf(lhr), inspectorIssues: describeInspectorIssues(result.artifacts.InspectorIssues) };
}

/** Failed runs (Lighthouse's own advice for e.g. NO_NAVSTART is "run again"), across the benchmark. */
const retriedRuns: { url: string; error: string }[] = [];
const attemptsPerRun = 3;

/**
 * A run that fails as a whole (a trace that went wrong, a lost connection to Chrome) is taken again
 * in a fresh Chromium, up to `attemptsPerRun` times; the failures are reported. Only then is it a
 * real error.
 */
async function runLighthouse(url: string, onlyCategories?: string[]): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runLighthouseOnce(url, onlyCategories);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Once stopping (Ctrl-C, an error elsewhere), a run that fails is not taken again.
      if (stopping || attempt >= attemptsPerRun) throw error;
      retriedRuns.push({ url, error: message });
      console.warn(`Warning: ${message}\n  Retrying in a fresh Chromium (attempt ${attempt + 1} of ${attemptsPerRun})...`);
      runningChrome?.kill();
      runningChrome = undefined;
    }
  }
}

type PageResult = {
  page: string;
  url: string;
  /** Whether build/client has prerendered HTML for the path (otherwise the server sent the SPA shell). */
  prerendered: boolean;
  runs: RunFigures[];
  medianRun: number;
  median: RunFigures;
  failingAudits: AuditFinding[];
  erroredAudits: AuditFinding[];
  runWarnings: string[];
  /** Chrome's DevTools issues in the median run (what the inspector-issues audit counts). */
  inspectorIssues: string[];
  /** Scripts the page loaded that its HTML does not reference (dynamic imports during load). */
  scriptsNotInHtml: string[];
  staticJs: StaticPageJs | undefined;
  /** Body bytes of the median run's scripts as the server sends them (compressed if it compresses), no headers. */
  scriptBodyBytesServed: number;
  htmlReport: string;
  bars: {
    scores: Record<CategoryId, boolean | null>;
    lcp: boolean | null;
    fcp: boolean | null;
    cls: boolean | null;
    publicJsWire: boolean;
    publicJsStatic: boolean | null;
  };
};

/** Where the SPA shell sits in staticByPage: the server's answer for paths without prerendered HTML. */
const fallbackKey = fallbackPageLabel;

/** As the server matches pages: case-insensitively, without a trailing slash or query. */
function pageKey(page: string): string {
  return page.split(/[?#]/)[0]!.replace(/\/+$/, '').toLowerCase() || '/';
}

function slugOf(page: string): string {
  return page === '/' ? 'home' : page.replace(/^\/+/, '').replace(/[^A-Za-z0-9_-]+/g, '_');
}

async function measurePage(baseUrl: string, page: string, options: Options, staticByPage: Map<string, StaticPageJs>): Promise<PageResult> {
  const url = new URL(page, baseUrl).href;
  const results: LighthouseRun[] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    const started = performance.now();
    const result = await runLighthouse(url);
    const { figures } = result;
    console.log(
      `Lighthouse   ${page} run ${run}/${options.runs}: performance ${figures.scores.performance ?? 'n/a'}, ` +
        `LCP ${fixed((figures.lcpMs ?? Number.NaN) / 1000, 2)} s, TBT ${fixed(figures.tbtMs, 0)} ms (${fixed((performance.now() - started) / 1000, 1)} s)`,
    );
    results.push(result);
  }
  const runs = results.map((result) => result.figures);
  const medianRun = medianRunIndex(runs);
  const { lhr, inspectorIssues } = results[medianRun]!;
  const median = runs[medianRun]!;
  const { failing, errored } = auditFindings(lhr);
  for (const finding of failing) if (finding.id === 'inspector-issues' && inspectorIssues.length > 0) finding.examples = inspectorIssues;

  let scriptBodyBytesServed = 0;
  // The build may have changed since (another engineer's build): a script gone by now counts as 0.
  for (const script of median.scripts) {
    const answer = await probeOnce(script.url, true);
    if (answer.status === 200) scriptBodyBytesServed += answer.bodyBytes;
  }

  fs.mkdirSync(reportsDir, { recursive: true });
  const htmlReport = path.join(reportsDir, `${slugOf(page)}.html`);
  fs.writeFileSync(htmlReport, generateReport(lhr, 'html'));

  const staticJs = staticByPage.get(pageKey(page));
  const servedHtml = staticJs ?? staticByPage.get(fallbackKey);
  const referenced = new Set((servedHtml?.scripts ?? []).map((script) => new URL(script.url, url).href.replace(/[?#].*$/, '')));
  const scriptsNotInHtml = [...new Set(median.scripts.map((script) => script.url.replace(/[?#].*$/, '')))].filter((scriptUrl) => !referenced.has(scriptUrl));

  const atLeast = (value: number | null | undefined, minimum: number) => (value === null || value === undefined ? null : value >= minimum);
  const atMost = (value: number | undefined, maximum: number) => (value === undefined ? null : value <= maximum);
  return {
    page,
    url,
    prerendered: staticJs !== undefined,
    runs,
    medianRun,
    median,
    failingAudits: failing,
    erroredAudits: errored,
    runWarnings: [...new Set(results.flatMap((result) => result.lhr.runWarnings))],
    inspectorIssues,
    scriptsNotInHtml,
    staticJs,
    scriptBodyBytesServed,
    htmlReport: path.relative(projectRoot, htmlReport),
    bars: {
      scores: Object.fromEntries(categoryIds.map((id) => [id, atLeast(median.scores[id], scoreBar(id))])) as Record<CategoryId, boolean | null>,
      lcp: atMost(median.lcpMs, bars.lcpMsMax),
      fcp: atMost(median.fcpMs, bars.fcpMsMax),
      cls: atMost(median.cls, bars.clsMax),
      publicJsWire: median.scriptTransferBytes <= bars.publicJsBytesMax,
      publicJsStatic: staticJs ? staticJs.totalGzipBytes <= bars.publicJsBytesMax : null,
    },
  };
}

// Step 4: report ---------------------------------------------------------------------------------

type Report = {
  ranAt: string;
  machine: { node: string; platform: string; cpus: number; cpuModel: string | undefined; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  options: Options & { warmupRuns: number };
  lighthouse: {
    version: string;
    formFactor: string;
    throttlingMethod: string;
    throttling: unknown;
    chromePath: string;
    chromeFlags: string[];
    userAgent: string;
    /** Lighthouse's measure of this machine's CPU speed; simulated throttling scales by it. */
    benchmarkIndex: number;
  };
  compression: CompressionSummary;
  /** Lighthouse runs that failed as a whole and were taken again. */
  retriedRuns: typeof retriedRuns;
  /** build/client changed while the benchmark ran (another build); the figures are of the copy taken at the start. */
  buildChanged: boolean;
  pages: PageResult[];
  /** Every prerendered HTML file in build/client. */
  staticJs: StaticPageJs[];
  bars: typeof bars;
};

function withVerdict(text: string, met: boolean | null): string {
  if (met === null) return text || 'n/a';
  return met ? text : `${text} MISSED`;
}

function kb(bytes: number): string {
  return fixed(bytes / kilobyte, 1);
}

function describeCompression(compression: CompressionSummary): string {
  const parts = (['html', 'js', 'css'] as const).map((kind) => {
    const { responses, compressed, encodings } = compression[kind];
    return `${kind.toUpperCase()} ${compressed}/${responses}${encodings.length > 0 ? ` (${encodings.join(', ')})` : ''}`;
  });
  return `responses compressed, asked with accept-encoding "${compression.requestedWith}": ${parts.join(', ')}`;
}

function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, '');
}

function printReport(report: Report): void {
  const { pages } = report;
  const median = (page: PageResult) => page.median;
  const rows: string[][] = [];
  for (const id of categoryIds) {
    rows.push([categoryLabels[id], `>= ${scoreBar(id)}`, ...pages.map((page) => withVerdict(String(median(page).scores[id] ?? 'n/a'), page.bars.scores[id]))]);
  }
  rows.push(['LCP (s)', `<= ${fixed(bars.lcpMsMax / 1000, 1)}`, ...pages.map((page) => withVerdict(fixed((median(page).lcpMs ?? Number.NaN) / 1000, 2), page.bars.lcp))]);
  rows.push(['CLS', `<= ${bars.clsMax}`, ...pages.map((page) => withVerdict(fixed(median(page).cls, 3), page.bars.cls))]);
  rows.push(['TBT (ms)', '', ...pages.map((page) => fixed(median(page).tbtMs, 0))]);
  rows.push(['FCP (s)', `<= ${fixed(bars.fcpMsMax / 1000, 1)}`, ...pages.map((page) => withVerdict(fixed((median(page).fcpMs ?? Number.NaN) / 1000, 2), page.bars.fcp))]);
  rows.push(['Speed Index (s)', '', ...pages.map((page) => fixed((median(page).speedIndexMs ?? Number.NaN) / 1000, 2))]);
  const jsBar = `<= ${bars.publicJsBytesMax / kilobyte} (aim ${bars.publicJsBytesAim / kilobyte})`;
  rows.push([
    'public JS on the wire (KB)',
    jsBar,
    ...pages.map((page) => withVerdict(`${kb(median(page).scriptTransferBytes)} in ${median(page).scripts.length}`, page.bars.publicJsWire)),
  ]);
  rows.push(['  same, bodies as served (KB)', '', ...pages.map((page) => kb(page.scriptBodyBytesServed))]);
  rows.push(['  same, decoded (KB)', '', ...pages.map((page) => kb(median(page).scriptResourceBytes))]);
  rows.push([
    'public JS from build, gzip-9 (KB)',
    jsBar,
    ...pages.map((page) => (page.staticJs ? withVerdict(kb(page.staticJs.totalGzipBytes), page.bars.publicJsStatic) : 'not prerendered')),
  ]);
  rows.push(['performance of each run', '', ...pages.map((page) => page.runs.map((run, index) => `${run.scores.performance ?? '-'}${index === page.medianRun ? '*' : ''}`).join(' '))]);
  rows.push(['LCP of each run (s)', '', ...pages.map((page) => page.runs.map((run) => fixed((run.lcpMs ?? Number.NaN) / 1000, 2)).join(' '))]);

  const { lighthouse: lh, machine, options } = report;
  console.log('');
  console.log(
    `Web benchmark: Lighthouse ${lh.version}, default config (${lh.formFactor}, ${lh.throttlingMethod} throttling), median of ${options.runs} run(s) ` +
      `by performance score after ${options.warmupRuns} warm-up; Chromium ${/Chrome\/([\d.]+)/.exec(lh.userAgent)?.[1] ?? '?'}, ` +
      `benchmarkIndex ${Math.round(lh.benchmarkIndex)}; Node ${machine.node}, ${machine.cpus} CPUs, ` +
      `load average ${fixed(machine.loadAverageAtStart[0], 1)} at the start, ${fixed(machine.loadAverageAtEnd[0], 1)} at the end.`,
  );
  console.log('');
  console.log(formatTable(['median run', 'bar', ...pages.map((page) => page.page)], rows));
  console.log('  KB = 1024 bytes. "On the wire" is the transfer size of the Script requests Lighthouse saw (headers included, as');
  console.log('  the server sent them); "bodies as served" leaves the headers out; "decoded" is after decompression; "from build"');
  console.log('  gzips (level 9) every <script src>, modulepreload and inline script of the HTML: what loads before any script runs;');
  console.log("  the modules a public page's loader imports later (on intent, or after the load event on the form pages) are not in it.");
  console.log('  * marks the median run.');
  for (const page of pages) {
    if (!page.prerendered) console.log(`  ${page.page}: no prerendered HTML in build/client; the server answered with the SPA shell.`);
    for (const request of page.median.failedRequests) {
      console.log(`  ${page.page}: FAILED REQUEST (left out of the sums): ${request.resourceType || 'request'} ${shortUrl(request.url)} answered ${request.statusCode ?? 'nothing'}`);
    }
    if (page.scriptsNotInHtml.length > 0) console.log(`  ${page.page}: scripts loaded but not referenced by the HTML: ${page.scriptsNotInHtml.join(', ')}`);
  }

  console.log('');
  console.log('Public JavaScript of every prerendered page in build/client (gzip level 9):');
  const staticRows = report.staticJs.map((entry) => [
    entry.page,
    String(entry.scripts.length),
    kb(entry.externalGzipBytes),
    `${entry.inlineScripts} / ${kb(entry.inlineGzipBytes)}`,
    kb(entry.externalRawBytes + entry.inlineRawBytes),
    kb(entry.totalGzipBytes),
    entry.totalGzipBytes > bars.publicJsBytesMax ? 'MISSED' : entry.totalGzipBytes > bars.publicJsBytesAim ? 'ok (over the aim)' : 'ok',
  ]);
  console.log(formatTable(['page', 'files', 'files KB', 'inline n / KB', 'raw KB', 'total KB', `bar <= ${bars.publicJsBytesMax / kilobyte} (aim ${bars.publicJsBytesAim / kilobyte})`], staticRows));
  const missing = report.staticJs.flatMap((entry) => entry.scripts.filter((script) => script.missing).map((script) => `${entry.page}: ${script.url}`));
  if (missing.length > 0) console.log(`  Referenced but not found under build/client (counted as 0): ${missing.join('; ')}`);

  console.log('');
  const { compression } = report;
  const smallList = compression.uncompressedSmall.map((entry) => `${shortUrl(entry.url)} (${entry.bytes} B)`).join(', ');
  if (compression.uncompressedLarge.length === 0) {
    console.log(`Compression: ${describeCompression(compression)}.`);
    if (smallList) console.log(`  Sent uncompressed, all under ${smallResponseBytes} B: ${smallList}.`);
  } else {
    console.log(`COMPRESSION: RESPONSES OF ${smallResponseBytes} B OR MORE ARE SENT UNCOMPRESSED. ${describeCompression(compression)}.`);
    console.log(`  Uncompressed: ${compression.uncompressedLarge.map((entry) => `${shortUrl(entry.url)} (${kb(entry.bytes)} KB)`).join(', ')}${smallList ? `; small: ${smallList}` : ''}.`);
    console.log('  Lighthouse\'s transfer sizes (and its "Enable text compression" audit) reflect what the server sends; the');
    console.log('  build-side gzip figure is what the same files would weigh compressed.');
  }

  for (const page of pages) {
    console.log('');
    console.log(`${page.page}: audits below 0.9 in the median run (report: ${page.htmlReport})`);
    if (page.failingAudits.length === 0) console.log('  none');
    for (const audit of page.failingAudits) {
      const score = audit.score === null ? '' : String(Math.round(audit.score * 100)).padStart(3);
      const categories = audit.categories.length > 0 ? audit.categories.join(',') : 'no category';
      console.log(`  ${score}  [${categories}] ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ''} (${audit.id})`);
      if (audit.explanation) console.log(`         ${audit.explanation.replace(/\s+/g, ' ').slice(0, 200)}`);
      for (const example of audit.examples) console.log(`         ${example}`);
    }
    if (page.erroredAudits.length > 0) {
      console.log(`  Audits that errored (not scored; e.g. for want of the network):`);
      for (const audit of page.erroredAudits) console.log(`    [${audit.categories.join(',') || 'no category'}] ${audit.title} (${audit.id}): ${audit.errorMessage ?? 'no message'}`);
    }
    for (const warning of page.runWarnings) console.log(`  Lighthouse warning: ${warning}`);
  }
  console.log('');
  for (const retried of report.retriedRuns) console.log(`Note: a run of ${retried.url} failed and was taken again: ${retried.error}`);
  if (report.buildChanged) {
    console.log('');
    console.log('Note: build/client changed while the benchmark ran (another build). These figures are of the copy taken at the start.');
  }
  console.log(`Figures written to ${path.relative(projectRoot, resultsFile)}; median-run reports in ${path.relative(projectRoot, reportsDir)}/`);
}

// Main --------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions();
  if (!fs.existsSync(serverEntry) || !fs.existsSync(clientDir)) {
    throw new Error('build/ is missing: run npm run bench:web (it builds), or node scripts/build-if-needed.mjs.');
  }
  if (!fs.existsSync(chromePath)) {
    throw new Error(`Chromium not found at ${chromePath}: apt-get install -y chromium, or set CHROME_PATH.`);
  }

  const loadAverageAtStart = os.loadavg();
  temporaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  const pages: PageResult[] = [];
  let compression: CompressionSummary;
  let lighthouseInfo: Report['lighthouse'];
  const warmupRuns = 1;
  let buildChanged = false;
  let staticJs: StaticPageJs[];
  try {
    const snapshot = await snapshotClient(path.join(temporaryDir, 'client'));
    staticJs = snapshot.staticJs;
    const staticByPage = new Map(staticJs.map((entry) => [entry.page === fallbackPageLabel ? fallbackKey : pageKey(entry.page), entry]));

    const server = await startBenchServer(path.join(temporaryDir, 'data'), path.join(temporaryDir, 'client'));
    console.log(`Server answered after ${fixed(server.startupMs, 0)} ms.`);
    await checkPages(server.baseUrl, options.pages, staticByPage);

    console.log(`Warm-up run (performance only) on ${options.pages[0]}...`);
    const { lhr: warmup } = await runLighthouse(new URL(options.pages[0]!, server.baseUrl).href, ['performance']);
    lighthouseInfo = {
      version: warmup.lighthouseVersion,
      formFactor: warmup.configSettings.formFactor,
      throttlingMethod: warmup.configSettings.throttlingMethod,
      throttling: warmup.configSettings.throttling,
      chromePath,
      chromeFlags,
      userAgent: warmup.environment.hostUserAgent,
      benchmarkIndex: warmup.environment.benchmarkIndex,
    };
    for (const page of options.pages) pages.push(await measurePage(server.baseUrl, page, options, staticByPage));
    compression = summarizeCompression();
    try {
      buildChanged = buildStamp(clientDir) !== snapshot.stamp;
    } catch {
      buildChanged = true; // a build is removing files right now
    }
  } finally {
    await stopEverything();
  }

  const report: Report = {
    ranAt: new Date().toISOString(),
    machine: {
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model,
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    options: { ...options, warmupRuns },
    lighthouse: lighthouseInfo,
    compression,
    retriedRuns,
    buildChanged,
    pages,
    staticJs,
    bars,
  };
  fs.mkdirSync(benchDataDir, { recursive: true });
  // Three decimals are plenty (ms, KB, CLS); the raw doubles are noise.
  const rounded = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value);
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, rounded, 2)}\n`);
  printReport(report);
}

// The server and Chromium must not outlive the benchmark, whatever ends it.
for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the server and Chromium...\n`);
    void stopEverything()
      .catch(() => undefined)
      .finally(() => process.exit(exitCode));
  });
}
process.once('exit', () => {
  runningChrome?.kill();
  runningServer?.signalStop();
});

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`\nBenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
