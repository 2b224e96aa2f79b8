/**
 * The CSV exports under load of size (issue 10), run by `npx tsx bench/api.ts --only export`: each
 * export downloaded whole from the running server over HTTP, with rows per second and how far the
 * server's resident memory rose above where it was before the download (sampled from /proc every
 * 20 ms while it runs). A streamed export stays flat however many rows; one built in memory grows
 * with the table.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { exportKinds, exportPath, type ExportKind } from '#shared/exports.ts';
import { fixed, formatTable, readMemory } from './lib.ts';

export type ExportMeasurement = {
  kind: ExportKind;
  rows: number;
  megabytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssBeforeMb: number | undefined;
  peakRssDuringMb: number | undefined;
  /** Peak during the download minus the RSS just before it. */
  rssGrowthMb: number | undefined;
};

/** Records are counted by their line ends outside quoted fields. */
function countRecords(text: string, state: { isQuoted: boolean }): number {
  let records = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 34) state.isQuoted = !state.isQuoted;
    else if (code === 10 && !state.isQuoted) records += 1;
  }
  return records;
}

async function measureOne(baseUrl: string, cookie: string, pid: number, kind: ExportKind): Promise<ExportMeasurement> {
  const before = readMemory(pid);
  let peak = before?.rssMb;
  let isDone = false;
  const sampler = (async () => {
    while (!isDone) {
      const now = readMemory(pid);
      if (now && (peak === undefined || now.rssMb > peak)) peak = now.rssMb;
      await sleep(20);
    }
  })();

  const started = performance.now();
  const response = await fetch(`${baseUrl}${exportPath(kind)}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`GET ${exportPath(kind)} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  const decoder = new TextDecoder();
  const state = { isQuoted: false };
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body!) {
    bytes += chunk.length;
    lines += countRecords(decoder.decode(chunk, { stream: true }), state);
  }
  const seconds = (performance.now() - started) / 1000;
  isDone = true;
  await sampler;
  const rows = Math.max(0, lines - 1);
  return {
    kind,
    rows,
    megabytes: bytes / 1024 / 1024,
    seconds,
    rowsPerSecond: rows / seconds,
    rssBeforeMb: before?.rssMb,
    peakRssDuringMb: peak,
    rssGrowthMb: before && peak !== undefined ? peak - before.rssMb : undefined,
  };
}

/** Work orders first (the 100,000-row one), then the others. */
export async function measureExports(baseUrl: string, cookie: string, pid: number): Promise<ExportMeasurement[]> {
  const results: ExportMeasurement[] = [];
  for (const kind of ['work-orders', ...exportKinds.filter((other) => other !== 'work-orders')] as ExportKind[]) {
    console.log(`Export       GET ${exportPath(kind)}...`);
    results.push(await measureOne(baseUrl, cookie, pid, kind));
  }
  return results;
}

export function printExportReport(results: ExportMeasurement[]): void {
  console.log('');
  console.log(
    formatTable(
      ['CSV export (streamed)', 'rows', 'MB', 's', 'rows/s', 'RSS before MB', 'peak RSS during MB', 'RSS growth MB'],
      results.map((result) => [
        `GET ${exportPath(result.kind)}`,
        String(result.rows),
        fixed(result.megabytes, 1),
        fixed(result.seconds, 2),
        fixed(result.rowsPerSecond, 0),
        fixed(result.rssBeforeMb, 0),
        fixed(result.peakRssDuringMb, 0),
        fixed(result.rssGrowthMb, 0),
      ]),
    ),
  );
}
