import { useMutation, useQuery } from '@tanstack/react-query';
import { integrationLabels, type IntegrationStatus, type IntegrationsResponse, type IntegrationTestResult } from '#shared/integrations.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { apiFetch } from '#client/lib/api.ts';

function useIntegrations() {
  return useQuery({
    queryKey: ['settings', 'integrations'] as const,
    queryFn: ({ signal }) => apiFetch<IntegrationsResponse>('/api/admin/settings/integrations', { signal }),
  });
}

const adapterLabels: Record<string, string> = {
  smtp: 'SMTP',
  outbox: 'Outbox folder',
  'rule-based': 'Built-in rules',
  model: 'Language model',
  webhook: 'Webhook',
  zip: 'ZIP centroids (offline)',
  google: 'Google',
  census: 'US Census',
  nominatim: 'Nominatim',
  'tile-server': 'Tile server',
  local: 'This server',
  'not-configured': 'Not configured',
  stripe: 'Stripe',
  none: 'Off',
};

function IntegrationCard({ integration }: { integration: IntegrationStatus }) {
  const test = useMutation({
    mutationFn: () => apiFetch<IntegrationTestResult>(`/api/admin/settings/integrations/${integration.name}/test`, { method: 'POST' }),
  });
  const label = integrationLabels[integration.name];
  const titleId = `integration-${integration.name}`;
  const buttonLabel = integration.name === 'email' ? 'Send test' : 'Test';

  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {label}
        </h2>
        <Badge tone={integration.adapter === 'not-configured' ? 'warning' : integration.adapter === 'none' ? 'neutral' : 'primary'}>{adapterLabels[integration.adapter] ?? integration.adapter}</Badge>
      </div>
      <p className="text-slate-800">{integration.summary}</p>
      {integration.details.length > 0 ? (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          {integration.details.map((detail) => (
            <div key={detail.label} className="contents">
              <dt className="text-slate-600">{detail.label}</dt>
              <dd className="break-all text-slate-900">{detail.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="text-xs text-slate-600">
        Configured by{' '}
        {integration.variables.map((variable) => (
          <code key={variable} className="mr-1 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-slate-800">
            {variable}
          </code>
        ))}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => test.mutate()}
          disabled={!integration.testable || test.isPending}
          aria-label={`${buttonLabel}: ${label}`}
        >
          {test.isPending ? 'Testing…' : buttonLabel}
        </Button>
        {integration.name === 'email' ? <span className="text-xs text-slate-600">Sends a test e-mail to your own address.</span> : null}
      </div>
      <div aria-live="polite">
        {test.isPending ? (
          <p role="status" className="text-sm text-slate-600">
            Testing {label.toLowerCase()}…
          </p>
        ) : test.isError ? (
          <Alert>Could not run the test: {test.error.message}</Alert>
        ) : test.data ? (
          <Alert tone={test.data.ok ? 'success' : 'error'}>
            <span className="font-semibold">{test.data.ok ? 'Works' : 'Failed'}</span> ({test.data.durationMs} ms): {test.data.message}
          </Alert>
        ) : null}
      </div>
    </section>
  );
}

/** Settings: integrations (issue 10): the active adapter for e-mail, chat, geocoding, maps and online payments, each with a test. */
export function IntegrationsPanel() {
  const integrations = useIntegrations();
  return (
    <div className="space-y-4">
      <p className="max-w-3xl text-slate-700">
        The outside services the product uses. Each is chosen by environment variables on the server; passwords and keys are never shown.
        A test goes through the same connection the product uses and reports what really happened.
      </p>
      {integrations.isPending ? (
        <p role="status" className="text-slate-600">
          Loading integrations…
        </p>
      ) : integrations.isError ? (
        <Alert>
          Could not load the integrations: {integrations.error.message}{' '}
          <Button variant="secondary" size="sm" onClick={() => void integrations.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {integrations.data.integrations.map((integration) => (
            <IntegrationCard key={integration.name} integration={integration} />
          ))}
        </div>
      )}
    </div>
  );
}
