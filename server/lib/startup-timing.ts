/**
 * Start-up phase marks (decision 023-b), printed only when STARTUP_TIMING=1: one stderr line per
 * phase, `startup-timing <phase> <epoch ms>`, from the main thread and the database's thread alike
 * (both read the same clock), so `npx tsx bench/startup.ts` can lay them against the spawn.
 */
// eslint-disable-next-line no-restricted-syntax -- a diagnostic switch both threads read before any configuration is loaded
const enabled = process.env.STARTUP_TIMING === '1';

export function markStartup(phase: string): void {
  if (!enabled) return;
  process.stderr.write(`startup-timing ${phase} ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`);
}
