import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '#server/db/data-dir-lock.ts';

const directories: string[] = [];
function freshDirectory(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-lock-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

describe('data directory lock', () => {
  it('refuses a second opener while the first holds the lock, and allows it after release', () => {
    const directory = freshDirectory();
    const lock = lockDataDir(directory);
    expect(() => lockDataDir(directory)).toThrow(DataDirLockedError);
    lock.release();
    lockDataDir(directory).release();
  });

  it('refuses while another live process holds the lock, naming it', async () => {
    const directory = freshDirectory();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(directory, '.lock'), String(other.pid));
      expect(() => lockDataDir(directory)).toThrow(new RegExp(`in use by another process \\(pid ${other.pid}\\)`));
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const directory = freshDirectory();
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.once('exit', resolve));
    fs.writeFileSync(path.join(directory, '.lock'), String(dead.pid));
    const lock = lockDataDir(directory);
    expect(fs.readFileSync(path.join(directory, '.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(path.join(directory, '.lock'))).toBe(false);
  });
});
