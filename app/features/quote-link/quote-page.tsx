import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { formatDocumentDate } from '#shared/billing-document-content.ts';
import { telHref } from '#shared/company-profile.ts';
import { formatCents } from '#shared/money.ts';
import { quoteMessages, type PublicQuoteResponse } from '#shared/quote.ts';
import { DocumentLinkProblem } from '#client/components/document-link-problem.tsx';
import { BillingDocumentView } from '#client/features/invoices/index.ts';
import { ApiError } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import { customerQuoteKey, fetchQuote } from './api.ts';
import { ApproveForm } from './approve-form.tsx';
import { DeclineForm } from './decline-form.tsx';
import { formatMoment } from './labels.ts';
import { OptionCards } from './option-cards.tsx';

/**
 * The customer's quote (issue 20, decision 025-d), opened from the link in the e-mail or text, no
 * account: the options good / better / best, one chosen with a radio, then approved with the
 * typed full name, the "I approve" box and an optional drawn signature; or declined with an
 * optional reason. An answered, declined or expired quote shows what happened instead.
 */
export function QuotePage({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const quote = useQuery({
    queryKey: customerQuoteKey(token),
    queryFn: ({ signal }) => fetchQuote(token, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  /** Answered on this page (or refused as answered meanwhile): the outcome takes the focus. */
  const [answeredHere, setAnsweredHere] = useState(false);

  if (quote.isPending) {
    return (
      <p role="status" className="p-8 text-center text-slate-600">
        Loading your quote…
      </p>
    );
  }
  if (quote.isError) {
    return <DocumentLinkProblem documentName="Quote" error={quote.error} onRetry={() => void quote.refetch()} />;
  }

  const { data } = quote;
  const phone = data.company.phone || company.phone;
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
          Quote {data.quoteNumber}
          <span className="sr-only"> from {company.name}</span>
        </h1>
        <p className="text-lg font-medium text-slate-800">{data.title}</p>
        <p className="text-sm text-slate-700">
          Prepared for {data.customer.name}
          {data.validUntil ? <> · Valid until {formatDocumentDate(data.validUntil)}</> : null}
        </p>
      </header>
      {data.status === 'sent' ? (
        <OpenQuote
          key="open"
          token={token}
          quote={data}
          onAnswered={(next) => {
            queryClient.setQueryData(customerQuoteKey(token), next);
            setAnsweredHere(true);
          }}
          onConflict={() => {
            setAnsweredHere(true);
            void quote.refetch();
          }}
        />
      ) : (
        <Outcome key={data.status} quote={data} phone={phone} takeFocus={answeredHere} />
      )}
    </div>
  );
}

/** A quote waiting for the customer: the options to choose from, the approval and the decline. */
function OpenQuote({ token, quote, onAnswered, onConflict }: { token: string; quote: PublicQuoteResponse; onAnswered: (next: PublicQuoteResponse) => void; onConflict: () => void }) {
  const id = useId();
  const [chosenId, setChosenId] = useState<string | undefined>(quote.options.length === 1 ? quote.options[0]!.id : undefined);
  const [optionError, setOptionError] = useState<string>();
  const firstRadioRef = useRef<HTMLInputElement>(null);
  const chosen = quote.options.find((option) => option.id === chosenId);
  return (
    <>
      {quote.notes ? <p className="whitespace-pre-line text-slate-800">{quote.notes}</p> : null}
      <OptionCards
        options={quote.options}
        choosing={{
          legend: quote.options.length > 1 ? 'Choose an option' : 'The work we quoted',
          chosenId,
          onChoose: (optionId) => {
            setChosenId(optionId);
            setOptionError(undefined);
          },
          error: optionError,
          errorId: `${id}-option-error`,
          firstRadioRef,
        }}
      />
      {chosen ? (
        <details className="rounded-xl border border-slate-200 bg-white">
          <summary className="cursor-pointer rounded-xl p-4 font-semibold text-brand-800 hover:bg-slate-50">See the full quote for {chosen.name}</summary>
          <div className="p-2 sm:p-4">
            <BillingDocumentView document={chosen.document} />
          </div>
        </details>
      ) : null}
      <ApproveForm token={token} chosen={chosen} optionErrorRef={firstRadioRef} onOptionError={setOptionError} onAnswered={onAnswered} onConflict={onConflict} />
      <DeclineForm token={token} onAnswered={onAnswered} onConflict={onConflict} />
    </>
  );
}

/** Approved (thank you), declined or expired: what happened, and how to reach the company. */
function Outcome({ quote, phone, takeFocus }: { quote: PublicQuoteResponse; phone: string; takeFocus: boolean }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);
  const callUs = phone ? (
    <a className="font-semibold underline" href={telHref(phone)}>
      {phone}
    </a>
  ) : null;

  if (quote.status === 'approved') {
    const option = quote.options.find((candidate) => candidate.id === quote.approvedOptionId);
    return (
      <>
        <section aria-labelledby="quote-outcome" className="rounded-xl border border-green-200 bg-green-50 p-4 text-green-950 sm:p-6" data-testid="quote-outcome">
          <h2 id="quote-outcome" ref={headingRef} tabIndex={-1} className="text-xl font-bold">
            Thank you{quote.approvedByName ? `, ${quote.approvedByName}` : ''}! Your quote is approved.
          </h2>
          {option ? (
            <p className="mt-2">
              You chose <strong>{option.name}</strong> for <strong className="tabular-nums">{formatCents(option.document.totalCents)}</strong>.
            </p>
          ) : null}
          <p className="mt-1">
            Approved by <strong>{quote.approvedByName}</strong>
            {quote.approvedAt ? (
              <>
                {' '}
                on <time dateTime={quote.approvedAt}>{formatMoment(quote.approvedAt)}</time>
              </>
            ) : null}
            .
          </p>
          <p className="mt-3 text-lg font-semibold">We&apos;ll call you to schedule the work.</p>
          {callUs ? <p className="mt-1">Questions before then? Call us at {callUs}.</p> : null}
        </section>
        {option ? <BillingDocumentView document={option.document} /> : null}
      </>
    );
  }

  return (
    <>
      <section aria-labelledby="quote-outcome" className="rounded-xl border border-slate-300 bg-slate-50 p-4 text-slate-900 sm:p-6" data-testid="quote-outcome">
        <h2 id="quote-outcome" ref={headingRef} tabIndex={-1} className="text-xl font-bold">
          {quote.status === 'declined' ? 'You declined this quote' : 'This quote has expired'}
        </h2>
        {quote.status === 'declined' ? (
          <p className="mt-2">
            Thank you for letting us know
            {quote.declinedAt ? (
              <>
                {' '}
                (<time dateTime={quote.declinedAt}>{formatMoment(quote.declinedAt)}</time>)
              </>
            ) : null}
            . Changed your mind?{callUs ? <> Call us at {callUs} and we&apos;ll send you a new quote.</> : ' Contact us and we\u2019ll send you a new quote.'}
          </p>
        ) : (
          <p className="mt-2">
            {quoteMessages.expired}
            {callUs ? <> Call us at {callUs}.</> : null}
          </p>
        )}
      </section>
      <section aria-labelledby="quoted-options">
        <h2 id="quoted-options" className="mb-3 text-lg font-semibold text-slate-900">
          The options we quoted
        </h2>
        <OptionCards options={quote.options} />
      </section>
    </>
  );
}
