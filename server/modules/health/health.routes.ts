import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '#server/db/client.ts';

const alive = { status: 'ok' } as const;

export async function healthRoutes(app: FastifyInstance, options: { database: DatabaseHandle }): Promise<void> {
  // Liveness: a constant answer (also the framework's own ceiling in the benchmark).
  app.get('/healthz', async () => alive);

  // Readiness: the database answers.
  app.get('/readyz', async (_request, reply) => {
    try {
      await options.database.query('select 1');
      return { status: 'ok', database: options.database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: options.database.kind });
    }
  });
}
