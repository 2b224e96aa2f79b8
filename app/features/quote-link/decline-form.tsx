import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { quoteDeclineSchema, type PublicQuoteResponse } from '#shared/quote.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, fieldErrorOf, messageOf } from '#client/lib/api.ts';
import { declineQuote } from './api.ts';

/** "Decline this quote" opens a short form: an optional reason, then "Decline the quote" (or keep it open). */
export function DeclineForm({ token, onAnswered, onConflict }: { token: string; onAnswered: (quote: PublicQuoteResponse) => void; onConflict: () => void }) {
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [isSending, setIsSending] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  // Opening moves the focus to the reason; closing gives it back to the button that opened it.
  useEffect(() => {
    if (isOpen) reasonRef.current?.focus();
    else if (wasOpen.current) openerRef.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSending) return;
    setProblem(undefined);
    const parsed = quoteDeclineSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      reasonRef.current?.focus();
      return;
    }
    setError(undefined);
    setIsSending(true);
    try {
      onAnswered(await declineQuote(token, parsed.data.reason));
    } catch (caught) {
      setIsSending(false);
      const onField = fieldErrorOf(caught, 'reason');
      setError(onField);
      setProblem(onField ? undefined : messageOf(caught));
      if (caught instanceof ApiError && (caught.status === 404 || caught.status === 409)) onConflict();
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-slate-200 bg-slate-50 p-4 sm:p-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        Not going ahead?
      </h2>
      {isOpen ? (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Decline the quote" className="mt-3 space-y-3">
          <FormField id={`${id}-reason`} label="Reason" hint="(optional: it helps us do better)" error={error}>
            <textarea
              ref={reasonRef}
              id={`${id}-reason`}
              rows={3}
              maxLength={1000}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              className={controlClass}
              {...errorAttributes(`${id}-reason`, error)}
            />
          </FormField>
          <div aria-live="assertive" aria-atomic="true">
            {problem ? <Alert>{problem}</Alert> : null}
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" variant="destructive" className="min-h-12" disabled={isSending}>
              {isSending ? 'Declining…' : 'Decline the quote'}
            </Button>
            <Button variant="secondary" className="min-h-12" onClick={() => setIsOpen(false)} disabled={isSending}>
              Keep the quote open
            </Button>
          </div>
        </form>
      ) : (
        <>
          <p className="mt-1 text-slate-700">Let us know, and tell us why if you like: we'll close this quote.</p>
          <Button ref={openerRef} variant="secondary" className="mt-3 min-h-12" onClick={() => setIsOpen(true)}>
            Decline this quote
          </Button>
        </>
      )}
    </section>
  );
}
