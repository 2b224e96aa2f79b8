import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataDirLockedError, lockDataDir } from '#server/db/data-dir-lock.ts';

const directories: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
function freshDirectory(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-lock-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

/** Another process (same PID namespace) holding the lock through the real lockDataDir. */
async function holdInChild(dataDir: string): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/hold-data-dir-lock.ts', dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  for await (const line of createInterface({ input: child.stdout })) {
    expect(JSON.parse(line)).toMatchObject({ locked: true });
    return child;
  }
  throw new Error('the lock holder printed nothing');
}

const lockFile = (directory: string) => path.join(directory, '.lock');
const readOwner = (directory: string) => JSON.parse(fs.readFileSync(lockFile(directory), 'utf8')) as Record<string, unknown>;
function setAge(directory: string, ageMs: number): void {
  const then = new Date(Date.now() - ageMs);
  fs.utimesSync(lockFile(directory), then, then);
}

describe('data directory lock', () => {
  it('refuses a second opener while the first holds the lock, and allows it after release', () => {
    const directory = freshDirectory();
    const lock = lockDataDir(directory);
    expect(() => lockDataDir(directory)).toThrow(DataDirLockedError);
    lock.release();
    expect(fs.existsSync(lockFile(directory))).toBe(false);
    lockDataDir(directory).release();
  });

  it('records who holds it: pid, host, boot id, PID namespace, process start time and a token', () => {
    const directory = freshDirectory();
    const lock = lockDataDir(directory);
    try {
      expect(readOwner(directory)).toMatchObject({
        pid: process.pid,
        host: os.hostname(),
        bootId: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
        pidNamespace: fs.readlinkSync('/proc/self/ns/pid'),
        processStart: expect.stringMatching(/^\d+$/),
        token: expect.any(String),
      });
    } finally {
      lock.release();
    }
  });

  it('refuses while another live process holds the lock, naming it', async () => {
    const directory = freshDirectory();
    const other = await holdInChild(directory);
    expect(() => lockDataDir(directory)).toThrow(new RegExp(`in use by another process \\(pid ${other.pid}\\)`));
  });

  it('takes over at once a lock left by a process that was killed', async () => {
    const directory = freshDirectory();
    const other = await holdInChild(directory);
    const exited = new Promise((resolve) => other.once('exit', resolve));
    other.kill('SIGKILL');
    await exited;
    expect(readOwner(directory).pid).toBe(other.pid);
    const lock = lockDataDir(directory);
    expect(readOwner(directory).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lockFile(directory))).toBe(false);
  });

  it('takes over a lock whose pid now belongs to another process (a recycled pid: other start time)', async () => {
    const directory = freshDirectory();
    const other = await holdInChild(directory);
    const owner = readOwner(directory);
    other.kill('SIGKILL');
    const unrelated = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'pipe' });
    children.push(unrelated);
    fs.writeFileSync(lockFile(directory), JSON.stringify({ ...owner, pid: unrelated.pid, processStart: '1' }));
    lockDataDir(directory).release();
  });

  it('refuses a lock written in another process space while its heartbeat is fresh, and takes it once stale', () => {
    const directory = freshDirectory();
    const foreign = { pid: 1, host: 'other-container', bootId: 'b', pidNamespace: 'pid:[1]', processStart: '5', token: 't', startedAt: new Date().toISOString() };
    fs.writeFileSync(lockFile(directory), JSON.stringify(foreign));
    setAge(directory, 5_000);
    expect(() => lockDataDir(directory)).toThrow(/pid 1 on host other-container, last heartbeat 5 s ago/);
    setAge(directory, 31_000);
    const lock = lockDataDir(directory);
    expect(readOwner(directory).pid).toBe(process.pid);
    lock.release();
  });

  it('judges a lock of the old format (a bare pid, no identity) by its age only', () => {
    const directory = freshDirectory();
    fs.writeFileSync(lockFile(directory), '1');
    expect(() => lockDataDir(directory)).toThrow(DataDirLockedError);
    setAge(directory, 60_000);
    lockDataDir(directory).release();
  });

  it('keeps the lock fresh with a heartbeat while held', async () => {
    const directory = freshDirectory();
    const lock = lockDataDir(directory, { heartbeatMs: 20 });
    try {
      setAge(directory, 60_000);
      await vi.waitFor(() => expect(Date.now() - fs.statSync(lockFile(directory)).mtimeMs).toBeLessThan(10_000), { timeout: 5_000 });
    } finally {
      lock.release();
    }
  });

  it('keeps beating while the main thread is blocked (a long synchronous PGlite statement)', () => {
    const directory = freshDirectory();
    const lock = lockDataDir(directory, { heartbeatMs: 20 });
    try {
      setAge(directory, 60_000);
      const blockedUntil = Date.now() + 3_000;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      // Blocks this thread (no event loop turn) until the worker has refreshed the mtime, at most 3 s.
      while (Date.now() - fs.statSync(lockFile(directory)).mtimeMs > 10_000 && Date.now() < blockedUntil) Atomics.wait(pause, 0, 0, 10);
      expect(Date.now() - fs.statSync(lockFile(directory)).mtimeMs).toBeLessThan(10_000);
    } finally {
      lock.release();
    }
  });

  it('reports a lock that another process took over, so the holder stops before writing more', async () => {
    const directory = freshDirectory();
    const onLost = vi.fn();
    const lock = lockDataDir(directory, { heartbeatMs: 20, onLost });
    try {
      fs.writeFileSync(lockFile(directory), JSON.stringify({ ...readOwner(directory), token: 'someone else' }));
      await vi.waitFor(() => expect(onLost).toHaveBeenCalledWith(expect.stringMatching(/was taken by another process/)), { timeout: 5_000 });
      expect(fs.existsSync(lockFile(directory))).toBe(true);
    } finally {
      lock.release();
    }
  });
});
