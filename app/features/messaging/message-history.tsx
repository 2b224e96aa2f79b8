import { useState } from 'react';
import { Link } from 'react-router';
import { messageChannelLabels, messageTypeLabels, type Message } from '#shared/messaging.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { refusalText, useResendMessage } from './api.ts';
import { canResend, messageStatusLabels, messageStatusTones, messageTimeLine } from './labels.ts';

type Outcome = { tone: 'success' | 'error'; text: string };

/**
 * A message history (the customer profile's and the work order's): newest first, one row per
 * message and channel with its type, channel, recipient, status, time and last error, the text as
 * it went out behind "Show message", and Resend for what was sent or failed.
 */
export function MessageHistory({
  messages,
  showWorkOrder = false,
  emptyText = 'No messages yet.',
}: {
  messages: readonly Message[];
  /** On the customer profile: which work order each message was about. */
  showWorkOrder?: boolean;
  emptyText?: string;
}) {
  const resend = useResendMessage();
  const [outcome, setOutcome] = useState<Outcome>();
  const sorted = [...messages].sort((a, b) => Date.parse(b.sentAt ?? b.sendAt) - Date.parse(a.sentAt ?? a.sendAt));

  function resendMessage(message: Message) {
    setOutcome(undefined);
    resend.mutate(message.id, {
      onSuccess: ({ message: queued }) =>
        setOutcome({ tone: 'success', text: `${messageTypeLabels[queued.type]} queued again to ${queued.recipient}.` }),
      onError: (error) => setOutcome({ tone: 'error', text: `Could not resend: ${refusalText(error, 'an unexpected error occurred. Please try again.')}` }),
    });
  }

  return (
    <div className="space-y-3">
      <div aria-live="polite">{outcome?.tone === 'success' ? <Alert tone="success">{outcome.text}</Alert> : null}</div>
      <div aria-live="assertive">{outcome?.tone === 'error' ? <Alert>{outcome.text}</Alert> : null}</div>
      {sorted.length === 0 ? (
        <p className="text-sm text-slate-600">{emptyText}</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Messages">
          {sorted.map((message) => (
            <MessageRow
              key={message.id}
              message={message}
              showWorkOrder={showWorkOrder}
              isResending={resend.isPending && resend.variables === message.id}
              onResend={() => resendMessage(message)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

export function MessageRow({
  message,
  showWorkOrder,
  isResending,
  onResend,
}: {
  message: Message;
  showWorkOrder: boolean;
  isResending: boolean;
  onResend: () => void;
}) {
  const typeLabel = messageTypeLabels[message.type];
  const channelLabel = messageChannelLabels[message.channel];
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900">{typeLabel}</span>
          <Badge tone="neutral">{channelLabel}</Badge>
          <Badge tone={messageStatusTones[message.status]}>{messageStatusLabels[message.status]}</Badge>
        </div>
        <p className="text-sm break-all text-slate-700">
          To {message.recipient}
          {showWorkOrder && message.workOrderId ? (
            <>
              {' · '}
              <Link to={`/admin/workorders/${encodeURIComponent(message.workOrderId)}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                {message.workOrderNumber ?? 'Work order'}
              </Link>
            </>
          ) : null}
        </p>
        <p className="text-sm text-slate-600">
          {messageTimeLine(message)}
          {message.attempts > 1 ? ` · ${message.attempts} attempts` : ''}
        </p>
        {message.lastError && message.status !== 'sent' ? <p className="text-sm break-words text-red-700">Error: {message.lastError}</p> : null}
        {message.body ? (
          <details className="text-sm">
            <summary className="cursor-pointer font-medium text-brand-700">Show message</summary>
            <div className="mt-2 rounded-md bg-slate-50 p-3 text-slate-800">
              {message.subject ? <p className="font-semibold">{message.subject}</p> : null}
              <p className="whitespace-pre-line">{message.body}</p>
            </div>
          </details>
        ) : null}
      </div>
      {canResend(message) ? (
        <Button variant="secondary" size="sm" onClick={onResend} disabled={isResending} aria-label={`Resend ${typeLabel} by ${channelLabel.toLowerCase()}`} className="shrink-0">
          {isResending ? 'Resending...' : 'Resend'}
        </Button>
      ) : null}
    </li>
  );
}
