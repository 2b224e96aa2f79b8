import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * PGlite is single-process: a second opener of the same data directory corrupts it. The first
 * process writes who it is to DATA_DIR/.lock (created exclusively): pid, host name, boot id, PID
 * namespace and process start time, and a random token. It refreshes the file's mtime every few
 * seconds (a heartbeat, from a worker thread, so a busy event loop does not stop it) for as long
 * as it holds the lock. Decision 018-e-data-dir-lock.
 *
 * Another opener judges an existing lock:
 * - written from the same process space (same host, boot and PID namespace): the owner is alive
 *   when its pid is and has the recorded start time, so a lock left by a crash is taken over at once;
 * - written from elsewhere (another container sharing the volume, each its own pid 1; another
 *   host; an old lock without identity): the pid says nothing here, so it is live until its
 *   heartbeat has stopped for `staleMs`.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
    readonly ownerWhere?: string,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${ownerPid}${ownerWhere ? ` ${ownerWhere}` : ''}). ` +
        'Only one process may open the embedded database: stop the running server first ' +
        '(or use DATABASE_URL with PostgreSQL to run several).',
    );
    this.name = 'DataDirLockedError';
  }
}

export type DataDirLock = { release: () => void };

export type DataDirLockOptions = {
  /** How often the holder refreshes the lock's mtime. */
  heartbeatMs?: number;
  /** A lock from another process space whose mtime is older than this is taken over. */
  staleMs?: number;
  /**
   * Called when the lock file no longer carries this process's token (taken over after the
   * heartbeat stalled, or deleted by hand): another process may now be writing the database.
   * Default: print why and exit at once, before this process writes anything more.
   */
  onLost?: (message: string) => void;
};

export const defaultHeartbeatMs = 5_000;
export const defaultStaleMs = 30_000;

type Owner = {
  pid: number;
  host: string;
  bootId: string;
  pidNamespace: string;
  /** /proc/<pid>/stat start time (clock ticks since boot): tells a recycled pid from the owner. */
  processStart: string;
  token: string;
  startedAt: string;
};

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function linkOrEmpty(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '';
  }
}

function processStartOf(pid: number | 'self'): string {
  const stat = readOrEmpty(`/proc/${pid}/stat`);
  // Fields after the command name (which may hold spaces) start at field 3; start time is field 22.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

function currentIdentity(token: string): Owner {
  return {
    pid: process.pid,
    host: os.hostname(),
    bootId: readOrEmpty('/proc/sys/kernel/random/boot_id'),
    pidNamespace: linkOrEmpty('/proc/self/ns/pid'),
    processStart: processStartOf('self'),
    token,
    startedAt: new Date().toISOString(),
  };
}

/** The recorded owner; a lock of the older format (a bare pid) has no identity and is judged by its mtime. */
function parseOwner(text: string): Partial<Owner> & { pid: number } {
  try {
    const parsed = JSON.parse(text) as Partial<Owner>;
    if (typeof parsed === 'object' && parsed !== null && Number.isInteger(parsed.pid)) return parsed as Partial<Owner> & { pid: number };
  } catch {
    // The bare-pid format, or garbage.
  }
  const pid = Number.parseInt(text, 10);
  return { pid: Number.isInteger(pid) ? pid : 0 };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isSameProcessSpace(owner: Partial<Owner>, self: Owner): boolean {
  return (
    owner.host === self.host &&
    owner.bootId === self.bootId &&
    owner.pidNamespace === self.pidNamespace &&
    // Without /proc (not Linux) the namespace and boot id are unknown: the host name alone would trust a pid again.
    self.bootId !== '' &&
    self.pidNamespace !== ''
  );
}

type Verdict = { live: false } | { live: true; where?: string };

function judge(owner: Partial<Owner> & { pid: number }, ageMs: number, self: Owner, staleMs: number): Verdict {
  if (isSameProcessSpace(owner, self)) {
    // Our own pid in a lock we do not hold: left by an earlier process that had it (a restart).
    if (owner.pid === self.pid || owner.pid <= 0 || !isAlive(owner.pid)) return { live: false };
    if (owner.processStart && processStartOf(owner.pid) !== owner.processStart) return { live: false };
    return { live: true };
  }
  if (ageMs > staleMs) return { live: false };
  const where = owner.host ? `on host ${owner.host}${owner.host === self.host ? ' in another PID namespace' : ''}` : 'of unknown host';
  return {
    live: true,
    where:
      `${where}, last heartbeat ${Math.max(0, Math.round(ageMs / 1000))} s ago; ` +
      `if that process is gone, the lock is taken over once its heartbeat has stopped for ${Math.round(staleMs / 1000)} s`,
  };
}

/** Runs in a worker thread: refreshes the mtime while the file still carries the token, reports 'lost' otherwise. */
const heartbeatSource = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const beat = () => {
  let text;
  try {
    text = fs.readFileSync(workerData.lockPath, 'utf8');
  } catch (error) {
    if (error && error.code === 'ENOENT') parentPort.postMessage('lost');
    return;
  }
  let token;
  try { token = JSON.parse(text).token; } catch { token = undefined; }
  if (token !== workerData.token) { parentPort.postMessage('lost'); return; }
  const now = new Date();
  try { fs.utimesSync(workerData.lockPath, now, now); } catch { /* retried at the next beat */ }
};
setInterval(beat, workerData.heartbeatMs);
`;

function defaultOnLost(message: string): void {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(70);
}

/** Lock files this process holds: a second open from the same process is refused too. */
const heldLocks = new Set<string>();

export function lockDataDir(dataDir: string, options: DataDirLockOptions = {}): DataDirLock {
  const heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
  const staleMs = options.staleMs ?? defaultStaleMs;
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, '.lock');
  if (heldLocks.has(lockPath)) throw new DataDirLockedError(dataDir, process.pid);
  const self = currentIdentity(randomUUID());
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, `${JSON.stringify(self)}\n`, { flag: 'wx', mode: 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let text: string;
      let ageMs: number;
      try {
        text = fs.readFileSync(lockPath, 'utf8');
        ageMs = Date.now() - fs.statSync(lockPath).mtimeMs;
      } catch (readError) {
        if ((readError as NodeJS.ErrnoException).code === 'ENOENT') continue; // Released meanwhile: try again.
        throw readError;
      }
      const owner = parseOwner(text.trim());
      const verdict = judge(owner, ageMs, self, staleMs);
      if (verdict.live) throw new DataDirLockedError(dataDir, owner.pid, verdict.where);
      // Stale. Remove it only if it is still the lock judged (not one another process just wrote).
      if (readOrEmpty(lockPath) === text.trim()) fs.rmSync(lockPath, { force: true });
      continue;
    }
    return hold(lockPath, self.token, heartbeatMs, options.onLost ?? defaultOnLost, dataDir);
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}

function hold(lockPath: string, token: string, heartbeatMs: number, onLost: (message: string) => void, dataDir: string): DataDirLock {
  heldLocks.add(lockPath);
  const heartbeat = new Worker(heartbeatSource, { eval: true, workerData: { lockPath, token, heartbeatMs } });
  heartbeat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldLocks.delete(lockPath);
    process.removeListener('exit', release);
    void heartbeat.terminate();
    try {
      if (parseOwner(fs.readFileSync(lockPath, 'utf8').trim()).token === token) fs.unlinkSync(lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  };
  heartbeat.on('message', (message) => {
    if (message !== 'lost' || released) return;
    release();
    onLost(
      `The lock on the data directory ${dataDir} was taken by another process (or removed). ` +
        'Stopping now so that two processes never write the embedded database at once.',
    );
  });
  process.once('exit', release);
  return { release };
}
