import { useId, useRef, useState } from 'react';
import type { Consent, ConsentStatus, MessageChannel } from '#shared/messaging.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { refusalText, useCustomerMessaging, useUpdateConsent } from './api.ts';
import { consentLine, undeliverableLine } from './labels.ts';
import { MessageHistory } from './message-history.tsx';

const channelObject: Record<MessageChannel, string> = { email: 'e-mail', sms: 'texts' };
const channelOrder: readonly MessageChannel[] = ['email', 'sms'];

type Outcome = { tone: 'success' | 'error'; text: string };

/** Opt in is offered when it would change something: not for e-mail to a customer without an address. */
function canOptIn(consent: Consent): boolean {
  if (consent.status === 'opted_in' || consent.isSending) return false;
  return !(consent.channel === 'email' && consent.status === 'default');
}

/**
 * The customer profile's "Messages" section (issue 18): each channel's consent in words with the
 * staff's opt in / opt out (texts only after confirming the customer agreed), and every message
 * sent or planned for the customer.
 */
export function CustomerMessagesSection({ customerId, changedAt }: { customerId: string; changedAt?: string }) {
  const titleId = useId();
  const messaging = useCustomerMessaging(customerId, changedAt);
  return (
    <section aria-labelledby={titleId} className={cardClassName('p-4 sm:p-6')}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Messages
      </h2>
      {messaging.isPending ? (
        <p role="status" className="mt-4 text-slate-600">
          Loading messages…
        </p>
      ) : messaging.isError ? (
        <Alert className="mt-4">
          Could not load the messages: {refusalText(messaging.error, 'an unexpected error occurred.')}{' '}
          <Button variant="secondary" size="sm" onClick={() => void messaging.refetch()} disabled={messaging.isFetching}>
            Try again
          </Button>
        </Alert>
      ) : (
        <div className="mt-4 space-y-5">
          <ConsentList customerId={customerId} consents={messaging.data.consents} />
          <div>
            <h3 className="text-base font-semibold text-slate-900">History</h3>
            <MessageHistory messages={messaging.data.messages} showWorkOrder emptyText="No messages to this customer yet." />
          </div>
        </div>
      )}
    </section>
  );
}

export function ConsentList({ customerId, consents }: { customerId: string; consents: readonly Consent[] }) {
  const update = useUpdateConsent(customerId);
  const [outcome, setOutcome] = useState<Outcome>();
  const [isConfirmingTexts, setIsConfirmingTexts] = useState(false);
  const sorted = [...consents].sort((a, b) => channelOrder.indexOf(a.channel) - channelOrder.indexOf(b.channel));

  function change(channel: MessageChannel, status: ConsentStatus) {
    setOutcome(undefined);
    update.mutate(
      { channel, status },
      {
        onSuccess: ({ consent }) => {
          setIsConfirmingTexts(false);
          setOutcome({ tone: 'success', text: `Saved. ${consentLine(consent)}.` });
        },
        onError: (error) => {
          setIsConfirmingTexts(false);
          setOutcome({ tone: 'error', text: `Could not change the consent: ${refusalText(error, 'an unexpected error occurred. Please try again.')}` });
        },
      },
    );
  }

  return (
    <div>
      <h3 className="text-base font-semibold text-slate-900">Consent</h3>
      <div aria-live="polite">{outcome?.tone === 'success' ? <Alert tone="success" className="mt-2">{outcome.text}</Alert> : null}</div>
      <div aria-live="assertive">{outcome?.tone === 'error' ? <Alert className="mt-2">{outcome.text}</Alert> : null}</div>
      <ul className="mt-2 divide-y divide-slate-200" aria-label="Consent by channel">
        {sorted.map((consent) => {
          const warning = undeliverableLine(consent);
          const isBusy = update.isPending && update.variables.channel === consent.channel;
          return (
            <li key={consent.channel} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2 text-slate-900">
                  <span>{consentLine(consent)}</span>
                  <Badge tone={consent.isSending ? 'success' : 'neutral'}>{consent.isSending ? 'Sending' : 'Not sending'}</Badge>
                </p>
                {warning ? (
                  <p className="flex flex-wrap items-center gap-2 text-sm text-amber-900">
                    <Badge tone="warning">Undeliverable</Badge>
                    {warning}
                  </p>
                ) : null}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                {canOptIn(consent) ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={isBusy}
                    onClick={() => (consent.channel === 'sms' ? setIsConfirmingTexts(true) : change('email', 'opted_in'))}
                  >
                    Opt in to {channelObject[consent.channel]}
                  </Button>
                ) : null}
                {consent.status !== 'opted_out' ? (
                  <Button variant="danger" size="sm" disabled={isBusy} onClick={() => change(consent.channel, 'opted_out')}>
                    Opt out of {channelObject[consent.channel]}
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      {isConfirmingTexts ? (
        <ConfirmTextsDialog isPending={update.isPending} onConfirm={() => change('sms', 'opted_in')} onCancel={() => setIsConfirmingTexts(false)} />
      ) : null}
    </div>
  );
}

/** Texting without the customer's agreement breaks carrier rules (TCPA): staff confirm they have it. */
function ConfirmTextsDialog({ isPending, onConfirm, onCancel }: { isPending: boolean; onConfirm: () => void; onCancel: () => void }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title="Opt in to texts?"
      description="Only opt a customer in when they agreed to receive text messages from the company (by phone, in person or in writing). They can reply STOP at any time."
      onClose={() => (isPending ? undefined : onCancel())}
      initialFocusRef={cancelRef}
    >
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={isPending}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={isPending}>
          {isPending ? 'Saving...' : 'The customer agreed'}
        </Button>
      </div>
    </Dialog>
  );
}
