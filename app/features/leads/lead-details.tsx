import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { leadStatuses, type LeadStatus } from '#shared/enums.ts';
import { leadMessages, leadStatusLabels, type LeadConversationTurn, type LeadKind } from '#shared/lead.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { cardClassName, LoadingCard } from '#client/components/ui/card.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { customerProfilePath, formatCalendarDate, telHref, PossibleMatchPanel } from '#client/features/customers/index.ts';
import { priorityLabel, priorityTone, workOrderDetailPath, workOrderStatusLabel } from '#client/features/work-orders/index.ts';
import { NewQuoteButton } from '#client/features/quotes/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { useChangeLeadStatus, useLead } from './api.ts';
import { ConvertLeadDialog } from './convert-lead-dialog.tsx';
import { formatDateTime, leadName, leadServiceTypeLabel, leadSourceLabel, leadStatusLabel, leadStatusTone, preferredTimeLabel } from './labels.ts';

export function LeadDetails({
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
  const [matchNotice, setMatchNotice] = useState<string>();
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
      <LoadingCard>Loading lead...</LoadingCard>
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

  const rows: [string, ReactNode][] = [
    ['Email', lead.email ? <a className="text-brand-700 underline" href={`mailto:${lead.email}`}>{lead.email}</a> : 'Not provided'],
    ['Phone', lead.phone ? <a className="text-brand-700 underline" href={telHref(lead.phone)}>{lead.phone}</a> : 'Not provided'],
    ['Address', lead.address ?? 'Not provided'],
    ['Service type', leadServiceTypeLabel(lead.serviceType)],
    ...(kind === 'estimate'
      ? ([
          ['Preferred date', lead.preferredDate ? formatCalendarDate(lead.preferredDate) : 'Not given'],
          ['Preferred time', preferredTimeLabel(lead.preferredTime)],
          ['Priority', <Badge key="priority" tone={priorityTone(lead.priority)}>{priorityLabel(lead.priority)}</Badge>],
        ] as [string, ReactNode][])
      : ([
          ['Urgency', lead.urgency ?? 'Not given'],
          ['Conversation', <code key="conversation" className="text-xs break-all">{lead.conversationId}</code>],
        ] as [string, ReactNode][])),
    ['Lead score', `${lead.leadScore}/10`],
    ['Source', leadSourceLabel(lead.source)],
    ['Received', formatDateTime(lead.createdAt, company.timeZone)],
    ['Last updated', formatDateTime(lead.updatedAt, company.timeZone)],
    ...(kind === 'estimate' ? ([['First answered', lead.respondedAt ? formatDateTime(lead.respondedAt, company.timeZone) : 'Not yet']] as [string, ReactNode][]) : []),
    ['Workflow stage', lead.isConverted ? 'Converted to work order' : 'Open'],
  ];

  return (
    <article aria-labelledby={`${statusId}-title`} className={cardClassName('space-y-4 p-4 lg:sticky lg:top-4')}>
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
        {lead.customer ? (
          <div className="mt-2">
            <NewQuoteButton
              source={{ customerId: lead.customer.id, ...(kind === 'estimate' ? { estimateRequestId: lead.id } : { aiLeadId: lead.id }) }}
              defaultTitle={lead.serviceType ? `${leadServiceTypeLabel(lead.serviceType)} for ${lead.customer.name}` : `Quote for ${lead.customer.name}`}
            />
          </div>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            {kind === 'estimate'
              ? 'To quote this lead, link it to a customer first: convert it to a work order (it finds or creates the customer).'
              : 'To quote this lead, it needs a customer first: a chat lead gets one when the visitor books a visit.'}
          </p>
        )}
      </section>

      <div aria-live="polite" aria-atomic="true">
        {matchNotice ? <Alert tone="success">{matchNotice}</Alert> : null}
      </div>
      {kind === 'chat' && lead.possibleMatch ? (
        <PossibleMatchPanel
          match={lead.possibleMatch}
          target={{ kind: 'chat_lead', id: lead.id }}
          expectedUpdatedAt={lead.updatedAt}
          onResolved={setMatchNotice}
          headingLevel="h3"
        />
      ) : null}

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
