import type { FastifyInstance } from 'fastify';
import { todayIn } from '#shared/dates.ts';
import { estimateRequestSchema } from '#shared/estimate.ts';
import { idempotencyKeySchema, parseOrThrow } from '#server/validation.ts';
import type { EstimateService } from './estimate.service.ts';


export async function estimateRoutes(
  app: FastifyInstance,
  options: { estimates: EstimateService; timeZone: string; limitPer15Minutes: number },
): Promise<void> {
  app.post(
    '/api/public/estimate-requests',
    {
      bodyLimit: 16 * 1024,
      config: { rateLimit: { max: options.limitPer15Minutes, timeWindow: '15 minutes' } },
    },
    async (request, reply) => {
      // The schema knows today's date in the company's time zone (no preferred date before it).
      const input = parseOrThrow(estimateRequestSchema(todayIn(options.timeZone)), request.body);
      const idempotencyKey = parseOrThrow(idempotencyKeySchema, request.headers['idempotency-key']);
      const { isReplay, ...result } = await options.estimates.submit(input, { idempotencyKey });
      return reply.status(isReplay ? 200 : 201).header('cache-control', 'no-store').send(result);
    },
  );
}
