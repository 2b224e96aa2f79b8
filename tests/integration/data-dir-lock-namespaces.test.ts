import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 15, must fix 6: two containers sharing a data volume are two processes in separate PID
// namespaces, each pid 1. The lock trusted the pid, so the second one took the lock too.
const canUnshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
const unshareReason = 'unshare --pid --fork --mount-proc is unavailable here (needs util-linux and root)';

type Answer = { locked: true; pid: number } | { locked: false; message: string };
const holders: ChildProcessWithoutNullStreams[] = [];
const directories: string[] = [];

afterEach(async () => {
  for (const holder of holders.splice(0)) {
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.stdin.end();
    if (holder.exitCode === null && holder.signalCode === null) await exited;
  }
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

/** Starts the lock holder in a new PID namespace (it is pid 1 there, as in a container) and reads its answer. */
async function holdInOwnNamespace(dataDir: string): Promise<Answer> {
  const holder = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, '--import', 'tsx', 'tests/support/hold-data-dir-lock.ts', dataDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  holders.push(holder);
  let stderr = '';
  holder.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: holder.stdout });
  for await (const line of lines) return JSON.parse(line) as Answer;
  throw new Error(`The lock holder printed nothing (stderr: ${stderr})`);
}

describe.skipIf(!canUnshare)(`data directory lock across PID namespaces${canUnshare ? '' : ` (skipped: ${unshareReason})`}`, () => {
  it('two processes in separate PID namespaces, both pid 1, no longer both take the embedded database lock', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-lock-ns-'));
    directories.push(dataDir);

    const first = await holdInOwnNamespace(dataDir);
    expect(first).toEqual({ locked: true, pid: 1 });

    const second = await holdInOwnNamespace(dataDir);
    expect(second.locked).toBe(false);
    expect(second.locked === false && second.message).toMatch(/in use by another process \(pid 1 /);
  });

  it('the lock of a process in another PID namespace is taken as soon as that process has released it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-lock-ns-'));
    directories.push(dataDir);

    expect(await holdInOwnNamespace(dataDir)).toEqual({ locked: true, pid: 1 });
    const first = holders[0]!;
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.stdin.end();
    await exited;
    expect(await holdInOwnNamespace(dataDir)).toEqual({ locked: true, pid: 1 });
  });
});
