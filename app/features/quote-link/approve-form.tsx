import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { quoteApproveSchema, type PublicQuoteResponse } from '#shared/quote.ts';
import { formatCents } from '#shared/money.ts';
import { SignatureField } from '#client/components/signature-field.tsx';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { ApiError, fieldErrorOf, messageOf } from '#client/lib/api.ts';
import { approveQuote } from './api.ts';
import type { PublicQuoteOption } from './labels.ts';

export type ApproveErrors = Partial<Record<'optionId' | 'name' | 'accepted' | 'signature', string>>;
const fields = ['optionId', 'name', 'accepted', 'signature'] as const;

/**
 * The approval: the customer types their full name (that is the signature), ticks "I approve this
 * quote and authorize the work", may draw a signature, and approves the chosen option. Checked with
 * the server's own schema first; the server's refusals land on the same fields.
 */
export function ApproveForm({
  token,
  chosen,
  optionErrorRef,
  onOptionError,
  onAnswered,
  onConflict,
}: {
  token: string;
  chosen: PublicQuoteOption | undefined;
  /** Where the focus goes when no option is chosen (the first radio). */
  optionErrorRef: RefObject<HTMLInputElement | null>;
  onOptionError: (message: string | undefined) => void;
  onAnswered: (quote: PublicQuoteResponse) => void;
  /** The quote changed meanwhile (answered elsewhere, expired): the page reloads it. */
  onConflict: () => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const [errors, setErrors] = useState<ApproveErrors>({});
  const [problem, setProblem] = useState<string>();
  const [isSending, setIsSending] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const acceptedRef = useRef<HTMLInputElement>(null);

  function show(found: ApproveErrors) {
    setErrors(found);
    onOptionError(found.optionId);
    if (found.optionId) optionErrorRef.current?.focus();
    else if (found.name) nameRef.current?.focus();
    else if (found.accepted) acceptedRef.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSending) return;
    setProblem(undefined);
    const parsed = quoteApproveSchema.safeParse({ optionId: chosen?.id ?? '', name, accepted, signature });
    if (!parsed.success) {
      const found: ApproveErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof ApproveErrors;
        found[field] ??= issue.message;
      }
      show(found);
      return;
    }
    show({});
    setIsSending(true);
    try {
      onAnswered(await approveQuote(token, parsed.data));
    } catch (error) {
      setIsSending(false);
      const found: ApproveErrors = {};
      for (const field of fields) {
        const message = fieldErrorOf(error, field);
        if (message) found[field] = message;
      }
      show(found);
      setProblem(Object.keys(found).length > 0 ? undefined : messageOf(error));
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) onConflict();
    }
  }

  const errorList = Object.values(errors);
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby={`${id}-heading`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
        Approve the quote
      </h2>
      <p className="text-slate-800">
        {chosen ? (
          <>
            Your choice: <strong>{chosen.name}</strong>, <strong className="tabular-nums">{formatCents(chosen.document.totalCents)}</strong>.
          </>
        ) : (
          'Choose one of the options above first.'
        )}
      </p>
      <FormField id={`${id}-name`} label="Your full name" isRequired hint="(typing your name signs the quote)" error={errors.name} className="max-w-md">
        <input
          ref={nameRef}
          id={`${id}-name`}
          autoComplete="name"
          required
          maxLength={120}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className={`${controlClass} min-h-12`}
          {...errorAttributes(`${id}-name`, errors.name)}
        />
      </FormField>
      <div>
        <label className="flex min-h-11 items-start gap-3 text-base font-medium text-slate-900">
          <input
            ref={acceptedRef}
            type="checkbox"
            required
            checked={accepted}
            onChange={(event) => setAccepted(event.target.checked)}
            aria-invalid={errors.accepted ? true : undefined}
            aria-describedby={errors.accepted ? `${id}-accepted-error` : undefined}
            className="mt-0.5 size-6 shrink-0 accent-brand-700"
          />
          I approve this quote and authorize the work
        </label>
        {errors.accepted ? (
          <p id={`${id}-accepted-error`} className="mt-1 text-sm text-red-700">
            {errors.accepted}
          </p>
        ) : null}
      </div>
      <SignatureField label="Your signature" hint="(optional: draw it in the box with a finger or the mouse)" onChange={setSignature} error={errors.signature} />
      <div aria-live="assertive" aria-atomic="true">
        {errorList.length > 0 ? <Alert>Please check the form: {errorList.join(' ')}</Alert> : null}
        {problem ? <Alert>{problem}</Alert> : null}
      </div>
      <Button type="submit" variant="accent" className="min-h-12 w-full text-base sm:w-auto" disabled={isSending}>
        {isSending ? 'Approving…' : 'Approve quote'}
      </Button>
    </form>
  );
}
