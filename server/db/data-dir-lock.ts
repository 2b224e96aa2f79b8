import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is single-process: a second opener of the same data directory corrupts it. The first
 * process writes its pid to DATA_DIR/.lock (created exclusively); others are refused while that
 * process lives. A lock left by a dead process (crash, kill -9) is taken over, so a restart after a
 * crash is not blocked.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${ownerPid}). ` +
        'Only one process may open the embedded database: stop the running server first ' +
        '(or use DATABASE_URL with PostgreSQL to run several).',
    );
    this.name = 'DataDirLockedError';
  }
}

export type DataDirLock = { release: () => void };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process holds: a second open from the same process is refused too. */
const heldLocks = new Set<string>();

export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, '.lock');
  if (heldLocks.has(lockPath)) throw new DataDirLockedError(dataDir, process.pid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      heldLocks.add(lockPath);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldLocks.delete(lockPath);
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const ownerPid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
      if (Number.isInteger(ownerPid) && ownerPid > 0 && ownerPid !== process.pid && isAlive(ownerPid)) {
        throw new DataDirLockedError(dataDir, ownerPid);
      }
      // Stale lock from a process that is gone (or a pid reused by us after a restart): remove and retry.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
