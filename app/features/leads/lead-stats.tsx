import { useId, useState } from 'react';
import { leadMetricDefinitions } from '#shared/lead.ts';
import type { useLeadStats } from './api.ts';
import { formatResponseTime } from './labels.ts';

export function LeadStatsCards({ stats }: { stats: ReturnType<typeof useLeadStats> }) {
  const data = stats.data;
  const value = (figure: number | undefined) => (figure === undefined ? '…' : figure.toLocaleString('en-US'));
  return (
    <div>
      <h2 className="sr-only">Lead statistics</h2>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <StatCard label="New Leads" value={value(data?.counts.new)} />
        <StatCard label="Urgent Leads" value={value(data?.counts.urgent)} tone="danger" />
        <StatCard label="Active Leads" value={value(data?.counts.active)} />
        <StatCard label="Converted" value={value(data?.counts.converted)} tone="success" />
        <StatCard
          label="Avg. Response Time"
          value={data ? formatResponseTime(data.averageResponseHours) : '…'}
          definition={leadMetricDefinitions.averageResponseTime}
          detail={data ? `${data.respondedCount} answered ${data.respondedCount === 1 ? 'request' : 'requests'}` : undefined}
        />
        <StatCard
          label="Conversion Rate"
          value={data ? `${data.conversionRate}%` : '…'}
          definition={leadMetricDefinitions.conversionRate}
          detail={data ? `${data.convertedCount} of ${data.estimateRequestCount} estimate requests` : undefined}
        />
      </dl>
      {stats.isError ? <p className="mt-2 text-sm text-red-700">The statistics could not be loaded.</p> : null}
    </div>
  );
}

/** A figure; a metric also explains itself: on hover and focus (tooltip) and under a visible help button. */
function StatCard({
  label,
  value,
  definition,
  detail,
  tone,
}: {
  label: string;
  value: string;
  definition?: string;
  detail?: string;
  tone?: 'danger' | 'success';
}) {
  const tipId = useId();
  const [isHelpOpen, setHelpOpen] = useState(false);
  const valueClass = tone === 'danger' ? 'text-red-700' : tone === 'success' ? 'text-green-800' : 'text-slate-900';
  return (
    <div className="group relative rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
      <dt className="flex items-center justify-between gap-1 text-sm font-medium text-slate-700">
        <span>{label}</span>
        {definition ? (
          <span>
            <button
              type="button"
              aria-describedby={tipId}
              aria-expanded={isHelpOpen}
              aria-label={`How ${label} is measured`}
              onClick={() => setHelpOpen((open) => !open)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setHelpOpen(false);
              }}
              className="inline-flex size-7 items-center justify-center rounded-full border border-slate-300 text-xs font-bold text-brand-700 hover:bg-brand-50"
            >
              ?
            </button>
            <span
              role="tooltip"
              id={tipId}
              className="invisible absolute inset-x-0 top-full z-10 mt-1 rounded-md bg-slate-900 p-2 text-xs font-normal text-white shadow-lg group-focus-within:visible group-hover:visible"
            >
              {definition}
            </span>
          </span>
        ) : null}
      </dt>
      <dd className={`mt-1 text-2xl font-bold ${valueClass}`} title={definition}>
        {value}
      </dd>
      {detail ? <dd className="text-xs text-slate-600">{detail}</dd> : null}
      {definition && isHelpOpen ? <dd className="mt-2 text-xs text-slate-700">{definition}</dd> : null}
    </div>
  );
}

