/**
 * Small helpers shared by the benchmarks: latency recording and percentiles, a load loop straight
 * on the database driver, autocannon runs, the server as a child process, memory figures and a
 * plain-text table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// Measurements -----------------------------------------------------------------------------------

export type Measurement = {
  /** Completed requests (or driver round trips) in the measured window. */
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest answer (a LatencyRecorder's summary has it). */
  maxMs?: number;
};

/** Latencies in milliseconds, kept exactly (sub-millisecond) so percentiles need no histogram. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private size = 0;

  record(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size] = ms;
    this.size += 1;
  }

  get count(): number {
    return this.size;
  }

  summarize(seconds: number): Measurement {
    const sorted = this.values.slice(0, this.size).sort(); // typed arrays sort numerically
    return {
      requests: this.size,
      seconds,
      requestsPerSecond: seconds > 0 ? this.size / seconds : 0,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: percentile(sorted, 100),
    };
  }
}

/** `work` run by `connections` callers in a loop for `seconds` (after one unmeasured round): the database's ceiling for that work. */
export async function loadOnDriver(connections: number, seconds: number, work: () => Promise<unknown>): Promise<Measurement> {
  const recorder = new LatencyRecorder();
  await Promise.all(Array.from({ length: connections }, work)); // warm-up
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const requestStarted = performance.now();
        await work();
        recorder.record(performance.now() - requestStarted);
      }
    }),
  );
  return recorder.summarize((performance.now() - started) / 1000);
}

/** Nearest-rank percentile of an ascending array (NaN when empty). */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

// Load straight on the database driver ----------------------------------------------------------

export type RawQuery = (text: string, params?: unknown[]) => Promise<unknown[]>;
export type DriverStep = { text: string; params: () => unknown[] };

/**
 * Keeps `concurrency` callers busy for `seconds`, each running `steps` one after the other (one
 * "request") as fast as the driver answers. On PGlite the queries serialize inside the single
 * embedded backend: that is the point, the result is the database's own ceiling for this work.
 */
export async function runDriverLoad(query: RawQuery, steps: DriverStep[], options: { concurrency: number; seconds: number }): Promise<Measurement> {
  const recorder = new LatencyRecorder();
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const caller = async () => {
    while (performance.now() < deadline) {
      const requestStarted = performance.now();
      for (const step of steps) await query(step.text, step.params());
      recorder.record(performance.now() - requestStarted);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, caller));
  // The window includes draining the requests in flight at the deadline, as autocannon's does.
  return recorder.summarize((performance.now() - started) / 1000);
}

// HTTP load with autocannon ---------------------------------------------------------------------

export type HttpMeasurement = Measurement & {
  non2xx: number;
  /** Connection errors, including timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
};

/**
 * One autocannon run. Latencies come from its per-response event rather than its histogram,
 * which keeps whole milliseconds only: these endpoints answer well under a millisecond apart.
 */
export function runHttpLoad(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Run for this long... */
  seconds: number;
  /** ...or stop after this many requests (for endpoints that write, so a run adds a bounded amount). */
  amount?: number;
  method?: 'GET' | 'POST';
  /** JSON body for POST. */
  body?: unknown;
}): Promise<HttpMeasurement> {
  return new Promise((resolve, reject) => {
    const recorder = new LatencyRecorder();
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.seconds }),
        timeout: 10,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]));
        resolve({ ...recorder.summarize(result.duration), non2xx: result.non2xx, errors: result.errors, statusCodes });
      },
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTimeMs) => recorder.record(responseTimeMs));
  });
}

// The server as a child process -----------------------------------------------------------------

export type ServerProcess = {
  pid: number;
  baseUrl: string;
  /** From spawn to the first 200 from GET /healthz. */
  startupMs: number;
  /** When the process was spawned, in epoch milliseconds (the server's STARTUP_TIMING marks use that clock). */
  spawnedAtEpochMs: number;
  /** The last 64 KB the process wrote to stdout and stderr. */
  output: () => string;
  /** Graceful stop (SIGTERM, so PGlite closes its data dir cleanly), SIGKILL after 10 s. */
  stop: () => Promise<void>;
  /** Synchronous last resort for process 'exit' handlers: sends SIGTERM and returns. */
  signalStop: () => void;
};

export type StartServerOptions = {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  host: string;
  port: number;
  timeoutMs: number;
  pollIntervalMs: number;
};

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The bundled server every benchmark starts (npm run bench builds it first). */
export const serverEntry = path.join(projectRoot, 'build/node/main.mjs');
export const benchHost = '127.0.0.1';
/** The staff account of the benchmarks; its password passes the product's password policy. */
export const benchAdmin = { email: 'bench-admin@example.com', name: 'Benchmark', password: 'Tidal-marsh-heat-pump-42' } as const;

/**
 * The built server on a free port of 127.0.0.1: the embedded database in `dataDir` (whatever the
 * calling shell set for DATABASE_URL), no demo data, quiet logs; `env` adds or overrides variables.
 */
export async function startBuiltServer(dataDir: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<ServerProcess> {
  if (!fs.existsSync(serverEntry)) {
    throw new Error(`${path.relative(projectRoot, serverEntry)} is missing: run npm run bench (it builds), or node scripts/build-if-needed.mjs.`);
  }
  const port = await findFreePort(benchHost);
  return startServerProcess({
    command: process.execPath,
    args: [serverEntry],
    cwd: projectRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: benchHost,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DATABASE_URL: '',
      ...env,
    },
    host: benchHost,
    port,
    timeoutMs,
    pollIntervalMs: 20,
  });
}

export async function startServerProcess(options: StartServerOptions): Promise<ServerProcess> {
  const baseUrl = `http://${options.host}:${options.port}`;
  const output = new OutputTail();
  const spawnedAt = performance.now();
  const spawnedAtEpochMs = performance.timeOrigin + spawnedAt;
  const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
  });
  for (const stream of [child.stdout, child.stderr]) {
    // LOG_LEVEL=warn keeps the server quiet; whatever it still says is worth seeing.
    stream.on('data', (chunk: Buffer) => {
      output.push(chunk);
      // STARTUP_TIMING's phase marks are for bench/startup.ts to read, not to echo.
      const shown = chunk.toString('utf8').replace(/^startup-timing .*\n/gm, '');
      if (shown) process.stderr.write(prefixLines(shown, '[server] '));
    });
  }

  const stop = () => stopChild(child);
  const signalStop = () => {
    if (isRunning(child)) child.kill('SIGTERM');
  };

  // Polling is fine here: this is a measurement, and 20 ms is the resolution of the figure.
  while (true) {
    if (spawnError) throw new Error(`Could not start the server: ${spawnError.message}`);
    if (!isRunning(child)) {
      throw new Error(`The server exited during start-up (code ${child.exitCode ?? child.signalCode}).\n${output.text()}`);
    }
    if (performance.now() - spawnedAt > options.timeoutMs) {
      await stop();
      throw new Error(`The server did not answer GET /healthz within ${options.timeoutMs} ms.\n${output.text()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        const startupMs = performance.now() - spawnedAt;
        return { pid: child.pid!, baseUrl, startupMs, spawnedAtEpochMs, output: () => output.text(), stop, signalStop };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(options.pollIntervalMs);
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut && isRunning(child)) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** The last 64 KB a process wrote, for error messages. */
class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > 65_536 && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function prefixLines(text: string, prefix: string): string {
  return text.replace(/^(?=.)/gm, prefix);
}

// System ----------------------------------------------------------------------------------------

/** A port that is free right now on this host (the OS picks it; there is a small race, fine here). */
export function findFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('Could not find a free port'))));
    });
  });
}

export type MemoryFigures = { peakRssMb: number; rssMb: number };

/** VmHWM (peak resident set) and VmRSS of a process, from /proc (Linux only; undefined elsewhere). */
export function readMemory(pid: number): MemoryFigures | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  const peak = kilobytes('VmHWM');
  const rss = kilobytes('VmRSS');
  if (Number.isNaN(peak) || Number.isNaN(rss)) return undefined;
  return { peakRssMb: peak / 1024, rssMb: rss / 1024 };
}

// Output ----------------------------------------------------------------------------------------

/** Columns padded to their widest cell; the first column left-aligned, the others right-aligned. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

export function fixed(value: number | undefined, digits: number): string {
  return value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits);
}
