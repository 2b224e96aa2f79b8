import { Link } from 'react-router';
import { formatCents } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useAgreementSummary } from './api.ts';

/** The dashboard's maintenance-plan figures (issue 22): members, visits to schedule this month, renewals ahead, recurring revenue. */
export function AgreementFigures() {
  const summary = useAgreementSummary();
  const data = summary.data;
  const figures = [
    { key: 'active', label: 'Active plans', value: data ? String(data.active) : '…' },
    { key: 'due', label: 'Visits due this month', value: data ? String(data.visitsDueThisMonth) : '…', to: '/admin/visits-due' },
    { key: 'renewals', label: 'Renewals in the next 30 days', value: data ? String(data.renewalsNext30Days) : '…' },
    { key: 'revenue', label: 'Recurring revenue a month', value: data ? formatCents(data.recurringRevenueCentsPerMonth) : '…' },
  ];
  return (
    <section aria-labelledby="agreement-figures-title" className="space-y-3">
      <h2 id="agreement-figures-title" className="text-lg font-semibold text-slate-900">
        Maintenance plans
      </h2>
      {summary.isError ? (
        <Alert>
          The maintenance plan figures could not be loaded.{' '}
          <Button size="sm" variant="secondary" onClick={() => void summary.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : null}
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-busy={summary.isPending || undefined}>
        {figures.map((figure) => (
          <div key={figure.key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm font-medium text-slate-700">{figure.to ? <Link to={figure.to} className="text-brand-700 underline">{figure.label}</Link> : figure.label}</dt>
            <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid={`agreements-${figure.key}`}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
