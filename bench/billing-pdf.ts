/**
 * The PDF of a billing document (issue 20, decision 024-d), run by `npm run bench` after the
 * technician app benchmark, by `npm run bench -- --only pdf` alone, or directly (no build needed):
 *
 *   npx tsx bench/billing-pdf.ts [--runs 200] [--warm-up 20]
 *
 * No database and no server: `--database-url`, which `npm run bench` hands every benchmark, is
 * accepted and ignored.
 *
 * 1. The first PDF in this process: `renderBillingPdf` loads pdfkit and parses the fonts on first
 *    use (decision 023-b), so this is what the first download after a server start costs.
 * 2. `--warm-up` unmeasured renders of each document (the JIT, fontkit's glyph caches).
 * 3. `--runs` renders of each document, interleaved (1 line, 30 lines, 100 lines, 1 line, ...) so
 *    all three share whatever else the machine does: the time from the call to the finished Buffer,
 *    kept exactly; p50, p99 (nearest rank) and max. Baseline in the same run: the 1-line invoice
 *    (fonts, header, totals, page footer: the fixed cost of any PDF); the others are printed as a
 *    ratio of its p50.
 *
 * Bar (issue 20): the PDF of a 30-line invoice in <= 300 ms, judged on the p99. Figures only: a
 * missed bar prints MISSED and the exit code stays 0. A render that fails or returns something that
 * is not a PDF exits non-zero. Figures in bench/.data/results-billing-pdf.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderBillingPdf } from '#server/lib/billing-pdf/index.ts';
import type { BillingDocument } from '#shared/billing-document.ts';
import { billingDocument, fixtureLines, sampleInvoice } from '#tests/support/billing-document-fixtures.ts';
import { fixed, formatTable, percentile, projectRoot } from './lib.ts';

const resultsFile = path.join(projectRoot, 'bench/.data/results-billing-pdf.json');
const barMs = 300;

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '200' }, 'warm-up': { type: 'string', default: '20' }, 'database-url': { type: 'string' } } });
const runs = Number(args.runs);
const warmUp = Number(args['warm-up']);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmUp) || warmUp < 0) {
  process.stderr.write('--runs must be a positive integer and --warm-up a non-negative one\n');
  process.exit(2);
}

// Every render gets a new document: the price-book names repeat as they do on real invoices, but
// quantities, prices (so every amount, tax and total), the customer and the dates differ, so the
// fonts' shaping memo (server/lib/billing-pdf/fonts.ts) sees new figures each time, not a replay.
let seed = 20_261_127;
function random(below: number): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return Math.floor((seed / 2_147_483_648) * below);
}

function invoiceWith(lineCount: number): BillingDocument {
  const lines = fixtureLines(lineCount).map((line) => ({ ...line, quantityMilli: 1000 + 250 * random(40), unitPriceCents: 5000 + random(250_000) }));
  const day = String(1 + random(28)).padStart(2, '0');
  const { customer, serviceAddressLines, references, notes, footer } = sampleInvoice(0);
  return billingDocument('invoice', lines, {
    customer: { ...customer, name: `Customer ${random(1_000_000)}` },
    ...(serviceAddressLines ? { serviceAddressLines } : {}),
    references,
    ...(notes ? { notes } : {}),
    ...(footer ? { footer } : {}),
    issuedOn: `2026-10-${day}`,
    dueOn: `2026-11-${day}`,
    payments: [{ receivedOn: `2026-11-${day}`, label: `Check #${random(10_000)}`, amountCents: random(50_000) }],
  });
}

const cases: { name: string; lineCount: number }[] = [
  { name: '1-line invoice (baseline)', lineCount: 1 },
  { name: '30-line invoice', lineCount: 30 },
  { name: '100-line invoice', lineCount: 100 },
];

async function render(document: BillingDocument): Promise<{ ms: number; bytes: number; pages: number }> {
  const started = performance.now();
  const pdf = await renderBillingPdf(document);
  const ms = performance.now() - started;
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-' || !pdf.subarray(-6).toString('latin1').includes('%%EOF')) throw new Error('renderBillingPdf returned something that is not a PDF');
  const pages = /\/Type \/Pages[\s\S]*?\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1];
  return { ms, bytes: pdf.length, pages: Number(pages ?? Number.NaN) };
}

const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');
console.log(`Billing PDF: ${runs} runs of each document after ${warmUp} warm-up runs; load average at start ${load()}`);

const first = await render(invoiceWith(30));

for (let index = 0; index < warmUp; index += 1) for (const entry of cases) await render(invoiceWith(entry.lineCount));

const times = cases.map(() => new Float64Array(runs));
const shapes = cases.map(() => ({ bytes: 0, pages: 0 }));
for (let run = 0; run < runs; run += 1) {
  for (const [index, entry] of cases.entries()) {
    const result = await render(invoiceWith(entry.lineCount));
    times[index]![run] = result.ms;
    shapes[index] = { bytes: result.bytes, pages: result.pages };
  }
}

const summaries = cases.map((entry, index) => {
  const sorted = times[index]!.slice().sort();
  return { name: entry.name, lines: entry.lineCount, ...shapes[index]!, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1]! };
});
const baseline = summaries[0]!;
const thirty = summaries[1]!;
const bar = thirty.p99Ms <= barMs ? 'ok' : 'MISSED';

console.log('');
console.log(
  formatTable(
    ['document', 'pages', 'KB', 'p50 ms', 'p99 ms', 'max ms', 'p50 / baseline', 'bar'],
    summaries.map((summary) => [
      summary.name,
      String(summary.pages),
      fixed(summary.bytes / 1024, 1),
      fixed(summary.p50Ms, 1),
      fixed(summary.p99Ms, 1),
      fixed(summary.maxMs, 1),
      fixed(summary.p50Ms / baseline.p50Ms, 2),
      summary === thirty ? `p99 <= ${barMs} ms: ${bar}` : '',
    ]),
  ),
);
console.log('');
console.log(`First PDF in the process (loads pdfkit and the fonts, then renders the 30-line invoice): ${fixed(first.ms, 1)} ms`);
console.log(`Load average at end ${load()}`);

fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.writeFileSync(resultsFile, `${JSON.stringify({ at: new Date().toISOString(), runs, warmUp, barMs, bar, firstPdfMs: first.ms, documents: summaries }, null, 2)}\n`);
