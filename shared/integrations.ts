import { z } from 'zod';
/**
 * The outside services the product talks to (issue 10), as the settings screen shows them: which
 * adapter is active and what it points at, never a secret (no passwords, keys or credentials in
 * URLs: hosts only). Each can be tested from the screen.
 */
export const integrationNames = ['email', 'chat', 'geocoding', 'maps', 'payments'] as const;
export type IntegrationName = (typeof integrationNames)[number];

export const integrationLabels: Record<IntegrationName, string> = {
  email: 'E-mail',
  chat: 'Chat assistant',
  geocoding: 'Geocoding',
  maps: 'Map tiles',
  payments: 'Online payments',
};

export const integrationStatusSchema = z.object({
  name: z.enum(integrationNames),
  /** The active adapter, e.g. 'smtp', 'outbox', 'rule-based', 'model', 'webhook', 'zip', 'google', 'stripe', 'none'. */
  adapter: z.string(),
  /** One line: what is active, in words. */
  summary: z.string(),
  /** Non-secret facts: host, port, model name, folder, a webhook URL to register. */
  details: z.array(z.object({ label: z.string(), value: z.string() })),
  /** The environment variables that choose and configure it. */
  variables: z.array(z.string()),
  /** Whether the Test button can run (false: nothing configured to test). */
  testable: z.boolean(),
});
export type IntegrationStatus = z.infer<typeof integrationStatusSchema>;

export const integrationsResponseSchema = z.object({ integrations: z.array(integrationStatusSchema) });
export type IntegrationsResponse = z.infer<typeof integrationsResponseSchema>;

export const integrationParamsSchema = z.object({ name: z.enum(integrationNames) });

/** The answer of a test: what happened, in words, with the real error text on failure. */
export const integrationTestResultSchema = z.object({ name: z.enum(integrationNames), ok: z.boolean(), message: z.string(), durationMs: z.number() });
export type IntegrationTestResult = z.infer<typeof integrationTestResultSchema>;

export const integrationTestQuestion = 'What are your office hours?';
