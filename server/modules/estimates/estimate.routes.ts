import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idempotencyHeadersSchema } from '#shared/api.ts';
import { todayIn } from '#shared/dates.ts';
import { estimateRequestSchema, estimateSubmissionResponseSchema } from '#shared/estimate.ts';
import { validateBodyForToday } from '#server/validation.ts';
import type { EstimateService } from './estimate.service.ts';

export async function estimateRoutes(
  app: FastifyInstance,
  options: { estimates: EstimateService; timeZone: string; limitPer15Minutes: number },
): Promise<void> {
  const today = () => todayIn(options.timeZone);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/public/estimate-requests',
    {
      bodyLimit: 16 * 1024,
      config: { rateLimit: { max: options.limitPer15Minutes, timeWindow: '15 minutes' } },
      schema: {
        headers: idempotencyHeadersSchema,
        body: estimateRequestSchema(today()),
        response: { 200: estimateSubmissionResponseSchema, 201: estimateSubmissionResponseSchema },
      },
      // The schema knows today's date in the company's time zone (no preferred date before it).
      validatorCompiler: validateBodyForToday(estimateRequestSchema, today),
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      const { isReplay, ...result } = await options.estimates.submit(request.body, { idempotencyKey });
      return reply.status(isReplay ? 200 : 201).header('cache-control', 'no-store').send(result);
    },
  );
}
