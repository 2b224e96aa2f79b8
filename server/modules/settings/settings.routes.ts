import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { companySettingItems, companySettingsResponseSchema } from '#shared/company-settings.ts';
import { integrationParamsSchema, integrationsResponseSchema, integrationTestResultSchema } from '#shared/integrations.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { AppError } from '#server/errors.ts';
import type { IntegrationsService } from './integrations.service.ts';

/**
 * Settings that read the server's configuration (admins only: /api/admin/settings/*): the company
 * profile as this server runs with it, and the integrations with their tests.
 */
export async function settingsRoutes(
  app: FastifyInstance,
  { company, integrations }: { company: CompanyProfile; integrations: IntegrationsService },
): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/settings/company', { schema: { response: { 200: companySettingsResponseSchema } } }, async () => ({
    items: companySettingItems(company),
  }));

  routes.get('/api/admin/settings/integrations', { schema: { response: { 200: integrationsResponseSchema } } }, async () =>
    integrations.status(),
  );

  routes.post(
    '/api/admin/settings/integrations/:name/test',
    {
      // Each test reaches an outside service: a few per minute per address is plenty.
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { params: integrationParamsSchema, response: { 200: integrationTestResultSchema } },
    },
    async (request) => {
      const user = request.staffUser;
      if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in.');
      return integrations.test(request.params.name, { recipient: user.email });
    },
  );
}
