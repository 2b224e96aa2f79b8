import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from './client.ts';

const hourMs = 3_600_000;

function hourIn(timeZone: string, now: Date): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(now));
}

/**
 * The embedded database has no autovacuum: keep the planner's statistics fresh every few hours,
 * and reclaim dead rows once a night (3 AM company time, when the office is closed; the database
 * answers nothing else while it runs). PostgreSQL does this itself.
 */
export function startEmbeddedMaintenance(database: DatabaseHandle, options: { timeZone: string; log: FastifyBaseLogger }): () => void {
  if (database.kind !== 'pglite') return () => undefined;
  let lastAnalyzeAt = Date.now();
  let lastVacuumAt = 0;
  const timer = setInterval(() => {
    const now = new Date();
    const isNight = hourIn(options.timeZone, now) === 3 && now.getTime() - lastVacuumAt > 20 * hourMs;
    const isAnalyzeDue = now.getTime() - lastAnalyzeAt >= 6 * hourMs;
    if (!isNight && !isAnalyzeDue) return;
    const statement = isNight ? 'vacuum (analyze)' : 'analyze';
    const startedAt = performance.now();
    database
      .query(statement)
      .then(() => {
        lastAnalyzeAt = now.getTime();
        if (isNight) lastVacuumAt = now.getTime();
        options.log.info({ statement, ms: Math.round(performance.now() - startedAt) }, 'database maintenance done');
      })
      .catch((error: unknown) => options.log.warn({ err: error, statement }, 'database maintenance failed'));
  }, hourMs);
  timer.unref();
  return () => clearInterval(timer);
}
