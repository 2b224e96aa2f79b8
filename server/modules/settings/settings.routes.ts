import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { companySettingItems, type CompanySettingsResponse } from '#shared/company-settings.ts';
import { integrationNames } from '#shared/integrations.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { AppError } from '#server/errors.ts';
import { parseOrThrow } from '#server/validation.ts';
import type { IntegrationsService } from './integrations.service.ts';

const integrationParamsSchema = z.object({ name: z.enum(integrationNames) });

/**
 * Settings that read the server's configuration (admins only: /api/admin/settings/*): the company
 * profile as this server runs with it, and the integrations with their tests.
 */
export async function settingsRoutes(
  app: FastifyInstance,
  { company, integrations }: { company: CompanyProfile; integrations: IntegrationsService },
): Promise<void> {
  app.get('/api/admin/settings/company', async (): Promise<CompanySettingsResponse> => ({ items: companySettingItems(company) }));

  app.get('/api/admin/settings/integrations', async () => integrations.status());

  app.post<{ Params: { name: string } }>(
    '/api/admin/settings/integrations/:name/test',
    // Each test reaches an outside service: a few per minute per address is plenty.
    { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
    async (request) => {
      const { name } = parseOrThrow(integrationParamsSchema, request.params);
      const user = request.staffUser;
      if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in.');
      return integrations.test(name, { recipient: user.email, origin: `${request.protocol}://${request.host}` });
    },
  );
}
