import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#shared/api.ts';
import {
  billingSettingsPageSchema,
  billingSettingsResponseSchema,
  billingSettingsSchema,
  taxRateBodySchema,
  taxRateListResponseSchema,
  taxRateResponseSchema,
} from '#shared/billing-settings.ts';
import { actorOf } from '#server/modules/audit/index.ts';
import type { BillingSettingsService } from './billing-settings.service.ts';

/**
 * Settings -> Billing: admins only (everything under /api/admin/settings, by the session guard).
 * GET /api/admin/tax-rates, the active rates the quote and invoice editors offer, is every staff member's.
 */
export async function billingSettingsRoutes(app: FastifyInstance, { billingSettings }: { billingSettings: BillingSettingsService }): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/tax-rates', { schema: { response: { 200: taxRateListResponseSchema } } }, async () => billingSettings.listTaxRates(true));

  routes.get('/api/admin/settings/billing', { schema: { response: { 200: billingSettingsPageSchema } } }, async () => ({
    ...(await billingSettings.read()),
    ...(await billingSettings.listTaxRates(false)),
  }));

  routes.put(
    '/api/admin/settings/billing',
    { schema: { body: billingSettingsSchema, response: { 200: billingSettingsResponseSchema } } },
    async (request) => billingSettings.save(request.body, actorOf(request)),
  );

  routes.post(
    '/api/admin/settings/tax-rates',
    { schema: { body: taxRateBodySchema, response: { 201: taxRateResponseSchema } } },
    async (request, reply) => reply.status(201).send({ taxRate: await billingSettings.createTaxRate(request.body, actorOf(request)) }),
  );

  routes.put(
    '/api/admin/settings/tax-rates/:id',
    { schema: { params: idParamsSchema, body: taxRateBodySchema, response: { 200: taxRateResponseSchema } } },
    async (request) => ({ taxRate: await billingSettings.updateTaxRate(request.params.id, request.body, actorOf(request)) }),
  );
}
