import { useState } from 'react';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { formatMessageTime, MessageHistory, refusalText, useMarkEnRoute, useWorkOrderMessages } from '#client/features/messaging/index.ts';
import type { WorkOrder } from './api.ts';
import { DetailCard } from './detail-card.tsx';

type Outcome = { tone: 'success' | 'error'; text: string };

/**
 * The work order's "Messages" card (issue 18): what was sent or is planned for this visit, Resend,
 * and "Mark en route" for a scheduled visit with a technician (the server then sends "On my way").
 */
export function WorkOrderMessagesCard({ workOrder, technicianName }: { workOrder: WorkOrder; technicianName: string | undefined }) {
  const messages = useWorkOrderMessages(workOrder.id, workOrder.updatedAt);
  const markEnRoute = useMarkEnRoute(workOrder.id);
  const [outcome, setOutcome] = useState<Outcome>();
  // The en-route mark is the work order's (`enRouteAt`); once set, "On my way" is planned from it.
  const canMarkEnRoute = workOrder.status === 'scheduled' && workOrder.technicianId !== null && !workOrder.enRouteAt && !markEnRoute.isSuccess;

  function onMarkEnRoute() {
    setOutcome(undefined);
    markEnRoute.mutate(undefined, {
      onSuccess: () => setOutcome({ tone: 'success', text: `Marked en route. On my way sent${technicianName ? ` for ${technicianName}` : ''}.` }),
      onError: (error) => setOutcome({ tone: 'error', text: `Could not mark en route: ${refusalText(error, 'an unexpected error occurred. Please try again.')}` }),
    });
  }

  return (
    <DetailCard
      title="Messages"
      actions={
        canMarkEnRoute ? (
          <Button size="sm" onClick={onMarkEnRoute} disabled={markEnRoute.isPending}>
            {markEnRoute.isPending ? 'Marking...' : 'Mark en route'}
          </Button>
        ) : null
      }
    >
      {workOrder.customerConfirmedAt || workOrder.enRouteAt ? (
        <ul className="mb-3 space-y-1 text-sm text-slate-700">
          {workOrder.customerConfirmedAt ? <li>The customer confirmed this visit by text, {formatMessageTime(workOrder.customerConfirmedAt)}.</li> : null}
          {workOrder.enRouteAt ? <li>Marked en route {formatMessageTime(workOrder.enRouteAt)}.</li> : null}
        </ul>
      ) : null}
      <div aria-live="polite">{outcome?.tone === 'success' ? <Alert tone="success" className="mb-3">{outcome.text}</Alert> : null}</div>
      <div aria-live="assertive">{outcome?.tone === 'error' ? <Alert className="mb-3">{outcome.text}</Alert> : null}</div>
      {messages.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Loading messages…
        </p>
      ) : messages.isError ? (
        <Alert>
          Could not load the messages: {refusalText(messages.error, 'an unexpected error occurred.')}{' '}
          <Button variant="secondary" size="sm" onClick={() => void messages.refetch()} disabled={messages.isFetching}>
            Try again
          </Button>
        </Alert>
      ) : (
        <MessageHistory messages={messages.data.messages} emptyText="No messages for this work order yet." />
      )}
    </DetailCard>
  );
}
