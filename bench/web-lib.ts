/**
 * Helpers for the public-page benchmark (bench/web.ts): the JavaScript a prerendered page pulls in,
 * read statically from build/client, and the figures, median run and failing audits of Lighthouse
 * results. No process, browser or server handling here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Result as LighthouseResult } from 'lighthouse';

export const kilobyte = 1024;

export function gzipSize(content: Buffer | string): number {
  return gzipSync(content, { level: 9 }).length;
}

// JavaScript in the built HTML ------------------------------------------------------------------

export type ScriptFile = {
  /** As referenced by the HTML (src or href). */
  url: string;
  /** How the HTML references it. */
  via: 'script' | 'modulepreload';
  rawBytes: number;
  gzipBytes: number;
  /** Not found under the client dir (or on another origin): counted as 0. */
  missing?: boolean;
};

export type StaticPageJs = {
  /** The URL path the page is served at ('/', '/estimate'), or '(SPA fallback)'. */
  page: string;
  /** Relative to the client dir. */
  htmlFile: string;
  scripts: ScriptFile[];
  stylesheets: string[];
  inlineScripts: number;
  inlineRawBytes: number;
  /** Each inline script gzipped on its own, summed. */
  inlineGzipBytes: number;
  externalRawBytes: number;
  externalGzipBytes: number;
  /** External + inline, gzip level 9. */
  totalGzipBytes: number;
};

const fallbackHtml = '__spa-fallback.html';
export const fallbackPageLabel = '(SPA fallback)';

/** Every .html file under the client dir, relative paths, sorted with the home page first. */
export function listHtmlFiles(clientDir: string): string[] {
  return fs
    .readdirSync(clientDir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort((a, b) => (a === 'index.html' ? -1 : b === 'index.html' ? 1 : a.localeCompare(b)));
}

/** 'index.html' -> '/', 'estimate/index.html' -> '/estimate', the SPA shell -> its label. */
export function pagePathOf(htmlFile: string): string {
  if (htmlFile === fallbackHtml) return fallbackPageLabel;
  if (htmlFile === 'index.html') return '/';
  if (htmlFile.endsWith('/index.html')) return `/${htmlFile.slice(0, -'/index.html'.length)}`;
  return `/${htmlFile}`;
}

/** Inline scripts of these types are data, not code (JSON-LD, hydration JSON, import maps). */
const javascriptTypes = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript']);

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attributes);
  if (!match) return undefined;
  return match[1] ?? match[2] ?? match[3] ?? '';
}

function hasAttribute(attributes: string, name: string): boolean {
  return new RegExp(`(?:^|\\s)${name}(?:\\s*=|\\s|$)`, 'i').test(attributes);
}

/** The static JavaScript of one prerendered HTML file: referenced files and inline scripts, gzipped. */
export function staticPageJs(clientDir: string, htmlFile: string): StaticPageJs {
  const html = fs.readFileSync(path.join(clientDir, htmlFile), 'utf8');
  const page = pagePathOf(htmlFile);
  const base = new URL(page === fallbackPageLabel ? '/' : page, 'http://page.invalid');

  const references: { url: string; via: ScriptFile['via'] }[] = [];
  let inlineScripts = 0;
  let inlineRawBytes = 0;
  let inlineGzipBytes = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    const src = attribute(attributes, 'src');
    if (src !== undefined) {
      references.push({ url: src, via: 'script' });
      continue;
    }
    const type = (attribute(attributes, 'type') ?? '').trim().toLowerCase();
    if (!javascriptTypes.has(type) || body.trim().length === 0) continue;
    inlineScripts += 1;
    inlineRawBytes += Buffer.byteLength(body);
    inlineGzipBytes += gzipSize(body);
  }
  const stylesheets: string[] = [];
  for (const match of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    const rel = (attribute(attributes, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attribute(attributes, 'href');
    if (href === undefined) continue;
    if (rel.includes('modulepreload')) references.push({ url: href, via: 'modulepreload' });
    else if (rel.includes('stylesheet') && !hasAttribute(attributes, 'disabled')) stylesheets.push(href);
  }

  const seen = new Set<string>();
  const scripts: ScriptFile[] = [];
  for (const reference of references) {
    const resolved = new URL(reference.url, base);
    const key = resolved.href.replace(/[?#].*$/, '');
    if (seen.has(key)) continue;
    seen.add(key);
    const file = resolved.origin === base.origin ? path.join(clientDir, decodeURIComponent(resolved.pathname)) : undefined;
    if (!file || !file.startsWith(clientDir + path.sep) || !fs.existsSync(file)) {
      scripts.push({ ...reference, rawBytes: 0, gzipBytes: 0, missing: true });
      continue;
    }
    const content = fs.readFileSync(file);
    scripts.push({ ...reference, rawBytes: content.length, gzipBytes: gzipSize(content) });
  }
  const externalRawBytes = scripts.reduce((sum, script) => sum + script.rawBytes, 0);
  const externalGzipBytes = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  return {
    page,
    htmlFile,
    scripts,
    stylesheets,
    inlineScripts,
    inlineRawBytes,
    inlineGzipBytes,
    externalRawBytes,
    externalGzipBytes,
    totalGzipBytes: externalGzipBytes + inlineGzipBytes,
  };
}

/** Names, sizes and modification times of everything under the client dir: changes when a build runs. */
export function buildStamp(clientDir: string): string {
  const hash = createHash('sha256');
  for (const entry of fs.readdirSync(clientDir, { withFileTypes: true, recursive: true }).filter((item) => item.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\0`);
  }
  return hash.digest('hex');
}

// Lighthouse results ----------------------------------------------------------------------------

export const categoryIds = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof categoryIds)[number];

export type LoadedScript = { url: string; transferBytes: number; resourceBytes: number; statusCode: number | undefined };

export type RunFigures = {
  /** 0-100, null when Lighthouse could not score the category. */
  scores: Record<CategoryId, number | null>;
  lcpMs: number | undefined;
  cls: number | undefined;
  tbtMs: number | undefined;
  fcpMs: number | undefined;
  speedIndexMs: number | undefined;
  /** Script requests of the page load that succeeded (network-requests audit, resourceType Script). */
  scripts: LoadedScript[];
  /** Requests of any type that failed (status >= 400 or no answer): left out of the sums above. */
  failedRequests: { url: string; resourceType: string; statusCode: number | undefined }[];
  /** Bytes on the wire (headers included, compressed if the server compressed). */
  scriptTransferBytes: number;
  /** Decoded body bytes. */
  scriptResourceBytes: number;
};

export function figuresOf(lhr: LighthouseResult): RunFigures {
  const scores = Object.fromEntries(
    categoryIds.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, typeof score === 'number' ? Math.round(score * 100) : null];
    }),
  ) as Record<CategoryId, number | null>;
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
  const requests = networkRequests(lhr);
  const failed = (request: Record<string, unknown>) => typeof request.statusCode !== 'number' || request.statusCode < 100 || request.statusCode >= 400;
  const scripts = requests
    .filter((request) => request.resourceType === 'Script' && !failed(request))
    .map((request) => ({
      url: String(request.url ?? ''),
      transferBytes: numberOr0(request.transferSize),
      resourceBytes: numberOr0(request.resourceSize),
      statusCode: typeof request.statusCode === 'number' ? request.statusCode : undefined,
    }));
  return {
    scores,
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    fcpMs: numeric('first-contentful-paint'),
    speedIndexMs: numeric('speed-index'),
    scripts,
    failedRequests: requests
      .filter(failed)
      .map((request) => ({
        url: String(request.url ?? ''),
        resourceType: String(request.resourceType ?? ''),
        statusCode: typeof request.statusCode === 'number' ? request.statusCode : undefined,
      })),
    scriptTransferBytes: scripts.reduce((sum, script) => sum + script.transferBytes, 0),
    scriptResourceBytes: scripts.reduce((sum, script) => sum + script.resourceBytes, 0),
  };
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The rows of the network-requests audit (empty if it errored). */
export function networkRequests(lhr: LighthouseResult): Record<string, unknown>[] {
  const details = lhr.audits['network-requests']?.details as { type?: string; items?: unknown[] } | undefined;
  if (!details || details.type !== 'table' || !Array.isArray(details.items)) return [];
  return details.items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

/**
 * The median run by performance score (Lighthouse's advice for repeated runs), ties broken by LCP.
 * With an even count the lower of the two middle runs is taken, so the figure errs on the cautious
 * side. Runs without a performance score sort first (as the worst).
 */
export function medianRunIndex(runs: RunFigures[]): number {
  if (runs.length === 0) throw new Error('No runs to take the median of');
  const order = runs
    .map((run, index) => ({ index, score: run.scores.performance ?? -1, lcp: run.lcpMs ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.score - b.score || b.lcp - a.lcp);
  return order[Math.floor((order.length - 1) / 2)]!.index;
}

export type AuditFinding = {
  id: string;
  title: string;
  /** 0-1; null for errored audits. */
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  /** Categories (ids) that count this audit; empty for audits outside the four categories. */
  categories: string[];
  /** A few of the elements or URLs the audit points at. */
  examples: string[];
  errorMessage?: string;
  explanation?: string;
};

const ignoredModes = new Set(['informative', 'notApplicable', 'manual']);

/**
 * Audits scoring below `threshold` (default 0.9, Lighthouse's "passed" line), and audits that errored
 * (offline, a protocol failure...), each with the categories that count it.
 */
export function auditFindings(lhr: LighthouseResult, threshold = 0.9): { failing: AuditFinding[]; errored: AuditFinding[] } {
  const categoriesOf = new Map<string, string[]>();
  for (const category of Object.values(lhr.categories)) {
    for (const ref of category.auditRefs) categoriesOf.set(ref.id, [...(categoriesOf.get(ref.id) ?? []), category.id]);
  }
  const failing: AuditFinding[] = [];
  const errored: AuditFinding[] = [];
  for (const audit of Object.values(lhr.audits)) {
    const finding: AuditFinding = {
      id: audit.id,
      title: audit.title,
      score: audit.score,
      scoreDisplayMode: audit.scoreDisplayMode,
      displayValue: audit.displayValue,
      categories: categoriesOf.get(audit.id) ?? [],
      examples: examplesOf(audit.details),
      errorMessage: audit.errorMessage,
      explanation: audit.explanation,
    };
    if (audit.scoreDisplayMode === 'error') errored.push(finding);
    else if (!ignoredModes.has(audit.scoreDisplayMode) && typeof audit.score === 'number' && audit.score < threshold) failing.push(finding);
  }
  const byCategoryThenScore = (a: AuditFinding, b: AuditFinding) =>
    categoryRank(a) - categoryRank(b) || (a.score ?? 0) - (b.score ?? 0) || a.id.localeCompare(b.id);
  failing.sort(byCategoryThenScore);
  errored.sort(byCategoryThenScore);
  return { failing, errored };
}

function categoryRank(finding: AuditFinding): number {
  const ranks = finding.categories.map((id) => categoryIds.indexOf(id as CategoryId)).filter((rank) => rank >= 0);
  return ranks.length > 0 ? Math.min(...ranks) : categoryIds.length;
}

/** Up to `limit` short descriptions (an element's snippet, a URL, a section's text) from an audit's details. */
function examplesOf(details: unknown, limit = 3): string[] {
  const examples: string[] = [];
  const visit = (item: unknown, depth: number) => {
    if (examples.length >= limit || depth > 4 || typeof item !== 'object' || item === null) return;
    const record = item as Record<string, unknown>;
    // Containers: a list of sections, a table inside a list, a list section's value.
    if (Array.isArray(record.items) && record.type !== 'subitems') {
      for (const child of record.items) visit(child, depth + 1);
      return;
    }
    if (record.type === 'list-section') {
      const value = record.value as Record<string, unknown> | undefined;
      if (value?.type === 'text') add(`${typeof record.title === 'string' ? `${record.title}: ` : ''}${String(value.value)}`);
      else if (value?.type === 'network-tree') add(describeNetworkTree(value));
      else visit(value, depth + 1);
      return;
    }
    add(describeItem(record));
  };
  const add = (example: string | undefined) => {
    if (example && examples.length < limit && !examples.includes(shorten(example))) examples.push(shorten(example));
  };
  visit(details, 0);
  return examples;
}

function describeItem(record: Record<string, unknown>): string | undefined {
  const node = record.node as { snippet?: string; nodeLabel?: string } | undefined;
  if (node?.snippet) return `${node.snippet}${node.nodeLabel ? ` (${node.nodeLabel})` : ''}`;
  if (typeof record.url === 'string' && record.url) return record.url;
  const source = record.source as { url?: string; value?: unknown } | undefined;
  if (source?.url) return source.url;
  if (typeof source?.value === 'string') return source.value;
  if (typeof record.issueType === 'string') return record.issueType;
  if (typeof record.description === 'string') return record.description;
  if (typeof record.label === 'string') return record.label;
  return undefined;
}

type NetworkTreeNode = { url?: string; navStartToEndTime?: number; children?: Record<string, NetworkTreeNode> };

/** The longest request chain of a network-tree detail: "127 ms: /page -> /assets/root.css". */
function describeNetworkTree(value: Record<string, unknown>): string | undefined {
  const chains = Object.values((value.chains ?? {}) as Record<string, NetworkTreeNode>);
  const latest = (nodes: NetworkTreeNode[]) => nodes.reduce<NetworkTreeNode | undefined>((best, node) => ((node.navStartToEndTime ?? 0) > (best?.navStartToEndTime ?? -1) ? node : best), undefined);
  const path: string[] = [];
  let node = latest(chains);
  let end = 0;
  while (node) {
    path.push(node.url ? node.url.replace(/^https?:\/\/[^/]+/, '') || '/' : '?');
    end = Math.max(end, node.navStartToEndTime ?? 0);
    node = latest(Object.values(node.children ?? {}));
  }
  return path.length > 0 ? `longest chain ${Math.round(end)} ms: ${path.join(' -> ')}` : undefined;
}

/** Chrome's DevTools issues (CSP violations, deprecations...) from a run's InspectorIssues artifact. */
export function describeInspectorIssues(issues: unknown, limit = 5): string[] {
  if (typeof issues !== 'object' || issues === null) return [];
  const lines: string[] = [];
  for (const [kind, entries] of Object.entries(issues as Record<string, unknown>)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (lines.length >= limit) return lines;
      const record = (entry ?? {}) as Record<string, unknown>;
      const location = record.sourceCodeLocation as { url?: string; lineNumber?: number; columnNumber?: number } | undefined;
      const fields = Object.entries(record)
        .filter(([key, value]) => key !== 'sourceCodeLocation' && (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number'))
        .map(([key, value]) => `${key}=${String(value)}`);
      const where = location?.url ? ` at ${location.url}:${(location.lineNumber ?? 0) + 1}:${(location.columnNumber ?? 0) + 1}` : '';
      lines.push(shorten(`${kind}: ${fields.join(', ')}${where}`, 300));
    }
  }
  return lines;
}

function shorten(text: string, max = 160): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}
