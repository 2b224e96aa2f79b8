import { useId, useState } from 'react';
import { Link } from 'react-router';
import { countLabel } from '#shared/api.ts';
import { customerMatchMessages } from '#shared/customer-match.ts';
import { leadFilterLabels, leadFilterRules, leadFilters, leadMessages, type LeadFilter, type LeadListItem } from '#shared/lead.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card, EmptyCard, LoadErrorCard, LoadingCard } from '#client/components/ui/card.tsx';
import { Pager, readPage } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { withPage } from '#client/components/ui/use-url-search.ts';
import { workOrderDetailPath } from '#client/features/work-orders/index.ts';
import { company } from '#client/lib/company.ts';
import { leadPageSize, useLeadList, useLeadStats } from './api.ts';
import { LeadDetails } from './lead-details.tsx';
import { LeadStatsCards } from './lead-stats.tsx';
import { descriptionPreview, formatDateTime, leadKey, leadName, leadServiceTypeLabel, leadStatusLabel, leadStatusTone, parseLeadKey } from './labels.ts';

function readFilter(value: string | null): LeadFilter {
  return (leadFilters as readonly string[]).includes(value ?? '') ? (value as LeadFilter) : 'active';
}

/** The URL of a tab: the filter (Active is the default and stays out of the URL), the search kept. */
function tabHref(searchParams: URLSearchParams, filter: LeadFilter): string {
  const params = new URLSearchParams(searchParams);
  if (filter === 'active') params.delete('filter');
  else params.set('filter', filter);
  params.delete('page');
  const query = params.toString();
  return query ? `?${query}` : '?';
}

/**
 * Lead management (spec 000 section 2, issue 7): metrics, the spec's tabs (kept in the URL, so the
 * dashboard can link to ?filter=urgent), search, the list of estimate requests and chat leads, a
 * details panel with the status dropdown and the conversion into a work order.
 */
export function LeadManagement() {
  const { draft, setDraft, search, searchParams, setSearchParams } = useSearchInput();
  const filter = readFilter(searchParams.get('filter'));
  const page = readPage(searchParams.get('page'));
  const selected = parseLeadKey(searchParams.get('lead'));
  const [conversionMessage, setConversionMessage] = useState<{ workOrderId: string; workOrderNumber: string }>();

  const list = useLeadList({ filter, search, page });
  const stats = useLeadStats();
  const leads = list.data?.leads ?? [];
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? leadPageSize;
  // Matches are counted only up to a cap: "1,000+ leads", and Next while pages are full.
  const isTotalCapped = list.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const hasNextPage = page < pageCount || (isTotalCapped && leads.length === pageSize);

  function select(lead: Pick<LeadListItem, 'kind' | 'id'> | undefined) {
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (lead) params.set('lead', leadKey(lead.kind, lead.id));
        else params.delete('lead');
        return params;
      },
      { preventScrollReset: true },
    );
  }

  function goToPage(next: number) {
    setSearchParams((current) => withPage(current, next));
  }

  return (
    <section aria-labelledby="leads-title" className="space-y-5">
      <div>
        <h1 id="leads-title" className="text-2xl font-bold text-slate-900">
          Lead Management
        </h1>
        <p className="mt-1 text-sm text-slate-600">Estimate requests from the website and leads from the chat assistant.</p>
      </div>

      <LeadStatsCards stats={stats} />

      <div aria-live="polite">
        {conversionMessage ? (
          <Alert tone="success">
            {leadMessages.converted}{' '}
            <Link to={workOrderDetailPath(conversionMessage.workOrderId)} className="font-semibold underline">
              Open work order {conversionMessage.workOrderNumber}
            </Link>
          </Alert>
        ) : null}
      </div>

      <nav aria-label="Lead filters">
        <ul className="flex flex-wrap gap-2">
          {leadFilters.map((value) => {
            const isCurrent = value === filter;
            const count = stats.data?.counts[value];
            return (
              <li key={value}>
                <Link
                  to={tabHref(searchParams, value)}
                  aria-current={isCurrent ? 'page' : undefined}
                  title={leadFilterRules[value]}
                  preventScrollReset
                  className={`inline-flex min-h-11 items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold ${
                    isCurrent ? 'bg-brand-700 text-white' : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
                  }`}
                >
                  {leadFilterLabels[value]}
                  {count === undefined ? null : (
                    <span className={`rounded-full px-2 text-xs ${isCurrent ? 'bg-white/20' : 'bg-slate-100'}`}>
                      <span className="sr-only">(</span>
                      {count}
                      <span className="sr-only">)</span>
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <p className="text-sm text-slate-600">
        <span className="font-medium text-slate-800">{leadFilterLabels[filter]}:</span> {leadFilterRules[filter]}
      </p>

      <Card>
        <SearchInput label="Search leads" value={draft} onChange={setDraft} placeholder={leadMessages.searchPlaceholder}>
          <p role="status" className="mt-2 text-sm font-medium text-slate-700">
            {list.isSuccess
              ? `${countLabel(total, isTotalCapped, { one: 'lead', many: 'leads' })}${list.isPlaceholderData ? ' · Updating…' : ''}`
              : null}
          </p>
        </SearchInput>
      </Card>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-4">
          {list.isPending ? (
            <LoadingCard>{leadMessages.loading}</LoadingCard>
          ) : list.isError ? (
            <LoadErrorCard title="Leads could not be loaded." isRetrying={list.isFetching} onRetry={() => void list.refetch()} />
          ) : leads.length === 0 ? (
            <EmptyCard title={leadMessages.noLeads}>
              <p className="mt-1 text-slate-600">{leadMessages.noLeadsText}</p>
            </EmptyCard>
          ) : (
            <>
              <ul aria-label="Leads" aria-busy={list.isPlaceholderData || undefined} className="space-y-3">
                {leads.map((lead) => (
                  <LeadCard
                    key={leadKey(lead.kind, lead.id)}
                    lead={lead}
                    isSelected={selected?.kind === lead.kind && selected.id === lead.id}
                    onSelect={() => select(lead)}
                  />
                ))}
              </ul>
              <Pager page={page} pageCount={pageCount} hasNextPage={hasNextPage} isCapped={isTotalCapped} onPageChange={goToPage} />
            </>
          )}
        </div>
        <div className="min-w-0">
          {selected ? (
            <LeadDetails
              key={leadKey(selected.kind, selected.id)}
              kind={selected.kind}
              id={selected.id}
              onClose={() => select(undefined)}
              onConverted={setConversionMessage}
            />
          ) : (
            <p className="hidden rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600 lg:block">
              Select a lead to see its details.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

function LeadCard({ lead, isSelected, onSelect }: { lead: LeadListItem; isSelected: boolean; onSelect: () => void }) {
  const titleId = useId();
  return (
    <li
      aria-labelledby={titleId}
      className={`rounded-lg border bg-white p-4 shadow-sm ${isSelected ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words text-slate-900">
          {leadName(lead)}
        </h2>
        <div className="flex flex-wrap gap-2">
          {lead.kind === 'chat' ? <Badge tone="info">Chat lead</Badge> : null}
          <Badge tone={leadStatusTone(lead.kind, lead.status)}>{leadStatusLabel(lead.kind, lead.status)}</Badge>
          {lead.priority === 'urgent' ? <Badge tone="danger">Urgent</Badge> : null}
          {lead.isConverted ? <Badge tone="success">Converted</Badge> : null}
          {lead.possibleMatch ? <Badge tone="warning">{customerMatchMessages.title}</Badge> : null}
        </div>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {leadServiceTypeLabel(lead.serviceType)} · Score {lead.leadScore}/10
        {lead.urgency ? ` · Urgency ${lead.urgency}` : ''} · {formatDateTime(lead.createdAt, company.timeZone)}
      </p>
      {lead.description ? <p className="mt-2 text-sm break-words text-slate-700">{descriptionPreview(lead.description)}</p> : null}
      <Button
        size="sm"
        variant={isSelected ? 'primary' : 'secondary'}
        className="mt-3"
        onClick={onSelect}
        aria-pressed={isSelected}
        aria-label={`View details: ${leadName(lead)}`}
      >
        View Details
      </Button>
    </li>
  );
}

