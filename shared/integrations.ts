/**
 * The outside services the product talks to (issue 10), as the settings screen shows them: which
 * adapter is active and what it points at, never a secret (no passwords, keys or credentials in
 * URLs: hosts only). Each can be tested from the screen.
 */
export const integrationNames = ['email', 'chat', 'geocoding', 'maps'] as const;
export type IntegrationName = (typeof integrationNames)[number];

export const integrationLabels: Record<IntegrationName, string> = {
  email: 'E-mail',
  chat: 'Chat assistant',
  geocoding: 'Geocoding',
  maps: 'Map tiles',
};

export type IntegrationStatus = {
  name: IntegrationName;
  /** The active adapter, e.g. 'smtp', 'outbox', 'rule-based', 'model', 'webhook', 'zip', 'google'. */
  adapter: string;
  /** One line: what is active, in words. */
  summary: string;
  /** Non-secret facts: host, port, model name, folder. */
  details: { label: string; value: string }[];
  /** The environment variables that choose and configure it. */
  variables: string[];
  /** Whether the Test button can run (false: nothing configured to test). */
  testable: boolean;
};

export type IntegrationsResponse = { integrations: IntegrationStatus[] };

/** The answer of a test: what happened, in words, with the real error text on failure. */
export type IntegrationTestResult = { name: IntegrationName; ok: boolean; message: string; durationMs: number };

export const integrationTestQuestion = 'What are your office hours?';
