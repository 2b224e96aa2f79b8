import { agingBucketLabels, type ReceivablesSummary } from '#shared/invoice.ts';
import { formatCents } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useReceivables } from './api.ts';

/**
 * The A/R figures (issue 20): unpaid, overdue, paid this month and the aging buckets. Shown above
 * the Invoices list and on the dashboard; live (the invoices/payments topics invalidate ['dashboard']).
 */
export function ReceivablesFigures({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const receivables = useReceivables();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const data = receivables.data;
  const value = (pick: (summary: ReceivablesSummary) => number) => (data ? formatCents(pick(data)) : '…');
  const figures = [
    { key: 'unpaid', label: 'Unpaid', value: value((summary) => summary.unpaidCents), detail: data ? `${data.openCount} open` : '' },
    { key: 'overdue', label: 'Overdue', value: value((summary) => summary.overdueCents), detail: data ? `${data.overdueCount} past due` : '' },
    { key: 'paid', label: 'Paid this month', value: value((summary) => summary.paidThisMonthCents), detail: '' },
  ];
  return (
    <section aria-labelledby="receivables-title" className="space-y-3">
      <Heading id="receivables-title" className="text-lg font-semibold text-slate-900">
        Accounts receivable
      </Heading>
      {receivables.isError ? (
        <Alert>
          The A/R figures could not be loaded.{' '}
          <Button size="sm" variant="secondary" onClick={() => void receivables.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : null}
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3" aria-busy={receivables.isPending || undefined}>
        {figures.map((figure) => (
          <div key={figure.key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm font-medium text-slate-700">{figure.label}</dt>
            <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid={`ar-${figure.key}`}>
              {figure.value}
            </dd>
            {figure.detail ? <dd className="text-sm text-slate-600">{figure.detail}</dd> : null}
          </div>
        ))}
      </dl>
      <dl aria-label="Aging of the unpaid balance" className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
        {(Object.keys(agingBucketLabels) as (keyof ReceivablesSummary['aging'])[]).map((bucket) => (
          <div key={bucket} className="rounded-md border border-slate-200 bg-white px-3 py-2">
            <dt className="text-slate-700">{agingBucketLabels[bucket]}</dt>
            <dd className="font-semibold text-slate-900">{data ? formatCents(data.aging[bucket]) : '…'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
