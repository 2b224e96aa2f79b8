import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { leadStatuses, type LeadStatus } from '#shared/enums.ts';
import {
  leadFilterLabels,
  leadFilterRules,
  leadFilters,
  leadMessages,
  leadMetricDefinitions,
  leadStatusLabels,
  type LeadFilter,
  type LeadConversationTurn,
  type LeadKind,
  type LeadListItem,
} from '#shared/lead.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { useUrlSearch, withPage } from '#client/components/ui/use-url-search.ts';
import { customerProfilePath, formatCalendarDate, telHref } from '#client/features/customers/labels.ts';
import { priorityLabel, priorityTone, workOrderDetailPath, workOrderStatusLabel } from '#client/features/work-orders/labels.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { leadPageSize, useChangeLeadStatus, useLead, useLeadList, useLeadStats } from './api.ts';
import { ConvertLeadDialog } from './convert-lead-dialog.tsx';
import {
  descriptionPreview,
  formatDateTime,
  formatResponseTime,
  leadKey,
  leadName,
  leadServiceTypeLabel,
  leadSourceLabel,
  leadStatusLabel,
  leadStatusTone,
  parseLeadKey,
  preferredTimeLabel,
} from './labels.ts';

function readFilter(value: string | null): LeadFilter {
  return (leadFilters as readonly string[]).includes(value ?? '') ? (value as LeadFilter) : 'active';
}

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
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
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = readFilter(searchParams.get('filter'));
  const page = readPage(searchParams.get('page'));
  const selected = parseLeadKey(searchParams.get('lead'));
  const searchId = useId();
  const { draft, setDraft, search } = useUrlSearch(searchParams, setSearchParams);
  const [conversionMessage, setConversionMessage] = useState<{ workOrderId: string; workOrderNumber: string }>();

  const list = useLeadList({ filter, search, page });
  const stats = useLeadStats();
  const leads = list.data?.leads ?? [];
  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / (list.data?.pageSize ?? leadPageSize)));

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

      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
          Search leads
        </label>
        <input
          id={searchId}
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={leadMessages.searchPlaceholder}
          autoComplete="off"
          enterKeyHint="search"
          className={controlClass}
        />
        <p role="status" className="mt-2 text-sm font-medium text-slate-700">
          {list.isSuccess ? `${total} ${total === 1 ? 'lead' : 'leads'}${list.isPlaceholderData ? ' · Updating…' : ''}` : null}
        </p>
      </div>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-4">
          {list.isPending ? (
            <p role="status" className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">
              {leadMessages.loading}
            </p>
          ) : list.isError ? (
            <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
              <p className="font-semibold">Leads could not be loaded.</p>
              <Button className="mt-4" onClick={() => void list.refetch()} disabled={list.isFetching}>
                {list.isFetching ? 'Retrying...' : 'Try again'}
              </Button>
            </div>
          ) : leads.length === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
              <p className="text-lg font-semibold text-slate-900">{leadMessages.noLeads}</p>
              <p className="mt-1 text-slate-600">{leadMessages.noLeadsText}</p>
            </div>
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
              {pageCount > 1 ? (
                <nav aria-label="Pagination" className="flex items-center justify-between gap-3">
                  <Button variant="secondary" onClick={() => goToPage(page - 1)} disabled={page <= 1}>
                    Previous
                  </Button>
                  <p className="text-sm text-slate-700">
                    Page {page} of {pageCount}
                  </p>
                  <Button variant="secondary" onClick={() => goToPage(page + 1)} disabled={page >= pageCount}>
                    Next
                  </Button>
                </nav>
              ) : null}
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

function LeadStatsCards({ stats }: { stats: ReturnType<typeof useLeadStats> }) {
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

function LeadDetails({
  kind,
  id,
  onClose,
  onConverted,
}: {
  kind: LeadKind;
  id: string;
  onClose: () => void;
  onConverted: (workOrder: { workOrderId: string; workOrderNumber: string }) => void;
}) {
  const query = useLead(kind, id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const statusId = useId();
  const changeStatus = useChangeLeadStatus();
  const [statusError, setStatusError] = useState<string>();
  const [isConverting, setConverting] = useState(false);
  const lead = query.data?.lead;

  // The panel sits below the list on a phone: bring it into view and give it the focus.
  useEffect(() => {
    if (lead) {
      headingRef.current?.focus({ preventScroll: true });
      headingRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    }
  }, [lead?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  if (query.isPending) {
    return (
      <p role="status" className="rounded-lg border border-slate-200 bg-white p-8 text-center text-slate-600">
        Loading lead...
      </p>
    );
  }
  if (!lead) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-red-800">
        <p className="font-semibold">{query.error instanceof ApiError && query.error.status === 404 ? leadMessages.notFound : 'The lead could not be loaded.'}</p>
        <Button variant="secondary" className="mt-3" onClick={onClose}>
          Close
        </Button>
      </div>
    );
  }

  async function saveStatus(status: LeadStatus) {
    if (!lead) return;
    setStatusError(undefined);
    try {
      await changeStatus.mutateAsync({ id: lead.id, status, expectedUpdatedAt: lead.updatedAt });
    } catch (error) {
      const isConflict = error instanceof ApiError && error.status === 409;
      setStatusError(isConflict ? `${leadMessages.statusUpdateFailed}. ${leadMessages.conflict}` : leadMessages.statusUpdateFailed);
    }
  }

  const rows: [string, React.ReactNode][] = [
    ['Email', lead.email ? <a className="text-brand-700 underline" href={`mailto:${lead.email}`}>{lead.email}</a> : 'Not provided'],
    ['Phone', lead.phone ? <a className="text-brand-700 underline" href={telHref(lead.phone)}>{lead.phone}</a> : 'Not provided'],
    ['Address', lead.address ?? 'Not provided'],
    ['Service type', leadServiceTypeLabel(lead.serviceType)],
    ...(kind === 'estimate'
      ? ([
          ['Preferred date', lead.preferredDate ? formatCalendarDate(lead.preferredDate) : 'Not given'],
          ['Preferred time', preferredTimeLabel(lead.preferredTime)],
          ['Priority', <Badge key="priority" tone={priorityTone(lead.priority)}>{priorityLabel(lead.priority)}</Badge>],
        ] as [string, React.ReactNode][])
      : ([
          ['Urgency', lead.urgency ?? 'Not given'],
          ['Conversation', <code key="conversation" className="text-xs break-all">{lead.conversationId}</code>],
        ] as [string, React.ReactNode][])),
    ['Lead score', `${lead.leadScore}/10`],
    ['Source', leadSourceLabel(lead.source)],
    ['Received', formatDateTime(lead.createdAt, company.timeZone)],
    ['Last updated', formatDateTime(lead.updatedAt, company.timeZone)],
    ...(kind === 'estimate' ? ([['First answered', lead.respondedAt ? formatDateTime(lead.respondedAt, company.timeZone) : 'Not yet']] as [string, React.ReactNode][]) : []),
    ['Workflow stage', lead.isConverted ? 'Converted to work order' : 'Open'],
  ];

  return (
    <article aria-labelledby={`${statusId}-title`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm lg:sticky lg:top-4">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`${statusId}-title`} ref={headingRef} tabIndex={-1} className="text-xl font-bold break-words text-slate-900 focus:outline-none">
            {leadName(lead)}
          </h2>
          <p className="text-sm text-slate-600">{kind === 'chat' ? 'Chat lead (AI assistant)' : 'Estimate request'}</p>
        </div>
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close details
        </Button>
      </header>

      {kind === 'estimate' ? (
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select
            id={statusId}
            value={lead.status}
            disabled={changeStatus.isPending}
            onChange={(event) => void saveStatus(event.target.value as LeadStatus)}
            aria-describedby={statusError ? `${statusId}-error` : undefined}
            className={controlClass}
          >
            {leadStatuses.map((status) => (
              <option key={status} value={status}>
                {leadStatusLabels[status]}
              </option>
            ))}
          </select>
          <div aria-live="assertive" id={`${statusId}-error`}>
            {statusError ? <Alert className="mt-2">{statusError}</Alert> : null}
          </div>
        </div>
      ) : (
        <p>
          <Badge tone={leadStatusTone(kind, lead.status)}>{leadStatusLabel(kind, lead.status)}</Badge>
        </p>
      )}

      <dl className="grid grid-cols-1 gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map(([label, content]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="mb-1 break-words text-slate-900 sm:mb-0">{content}</dd>
          </div>
        ))}
      </dl>

      <section aria-label="Description">
        <h3 className="text-sm font-semibold text-slate-800">{kind === 'chat' ? 'Notes' : 'Description'}</h3>
        <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-900">{lead.description || 'No description provided.'}</p>
      </section>

      <section aria-label="Customer" className="rounded-md border border-slate-200 p-3">
        <h3 className="text-sm font-semibold text-slate-800">Customer</h3>
        {lead.customer ? (
          <p className="mt-1 text-sm">
            <Link to={customerProfilePath(lead.customer.id)} className="font-semibold text-brand-700 underline">
              {lead.customer.name}
            </Link>
            <span className="block text-slate-700">{[lead.customer.phone, lead.customer.email, lead.customer.address].filter(Boolean).join(' · ')}</span>
          </p>
        ) : (
          <p className="mt-1 text-sm text-slate-700">Not linked to a customer yet.</p>
        )}
      </section>

      {kind === 'chat' ? <ConversationTranscript turns={query.data?.conversation ?? []} /> : null}

      {lead.workOrder ? (
        <p className="text-sm">
          <span className="font-medium text-slate-800">Work order: </span>
          <Link to={workOrderDetailPath(lead.workOrder.id)} className="font-semibold text-brand-700 underline">
            {lead.workOrder.workOrderNumber || 'View work order'}
          </Link>{' '}
          <span className="text-slate-700">({workOrderStatusLabel(lead.workOrder.status)})</span>
        </p>
      ) : null}

      {kind === 'estimate' && !lead.isConverted ? (
        <Button variant="accent" onClick={() => setConverting(true)} className="w-full sm:w-auto">
          {leadMessages.convertTitle}
        </Button>
      ) : null}

      {isConverting ? (
        <ConvertLeadDialog
          lead={lead}
          onClose={() => setConverting(false)}
          onConverted={(result) => {
            setConverting(false);
            onConverted({ workOrderId: result.workOrder.id, workOrderNumber: result.workOrder.workOrderNumber });
          }}
        />
      ) : null}
      {kind === 'estimate' && lead.isConverted && lead.workOrder ? (
        <Link to={workOrderDetailPath(lead.workOrder.id)} className={buttonClass('primary', 'md', 'w-full sm:w-auto')}>
          Open Work Order
        </Link>
      ) : null}
    </article>
  );
}

/** The chat lead's conversation with the assistant, oldest first. */
function ConversationTranscript({ turns }: { turns: LeadConversationTurn[] }) {
  return (
    <section aria-label="Conversation" className="rounded-md border border-slate-200 p-3">
      <h3 className="text-sm font-semibold text-slate-800">Conversation</h3>
      {turns.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">No messages stored for this conversation.</p>
      ) : (
        <ol tabIndex={0} aria-label="Messages" className="mt-2 max-h-80 space-y-3 overflow-y-auto text-sm">
          {turns.map((turn, index) => (
            <li key={`${turn.createdAt}-${index}`} className="space-y-1">
              <p className="text-xs text-slate-600">{formatDateTime(turn.createdAt, company.timeZone)}</p>
              <p className="break-words">
                <span className="font-semibold text-slate-800">Customer: </span>
                {turn.userMessage}
              </p>
              <p className="break-words text-slate-700">
                <span className="font-semibold text-slate-800">Assistant: </span>
                {turn.aiResponse}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
