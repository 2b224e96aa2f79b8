/**
 * Takes the embedded database's lock on the folder given as argument through the real lockDataDir
 * and holds it until stdin closes (then releases it). Prints one JSON line: `{"locked":true,"pid":…}`
 * or `{"locked":false,"message":…}`. Used by tests that run it in its own PID namespace (unshare).
 */
import { lockDataDir } from '#server/db/data-dir-lock.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: hold-data-dir-lock.ts DATA_DIR');
try {
  const lock = lockDataDir(dataDir);
  process.stdout.write(`${JSON.stringify({ locked: true, pid: process.pid })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    lock.release();
    process.exit(0);
  });
} catch (error) {
  process.stdout.write(`${JSON.stringify({ locked: false, message: (error as Error).message })}\n`);
  process.exit(0);
}
