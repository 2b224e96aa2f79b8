import { useId, useState } from 'react';
import { Link } from 'react-router';
import { customerMatchMessages, type CustomerMatchDecision, type PossibleCustomerMatch } from '#shared/customer-match.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ApiError } from '#client/lib/api.ts';
import { apiErrorMessage, useResolveCustomerMatch, type CustomerMatchTarget } from './api.ts';
import { customerProfilePath, fullAddress } from './labels.ts';

/**
 * A chat booking whose phone or e-mail matched a stored customer (decision 018-a): who it may be,
 * and the one-click choice. The outcome is announced by the caller's live region (`onResolved`);
 * a refusal (stale copy, already resolved) is shown here as an alert.
 */
export function PossibleMatchPanel({
  match,
  target,
  expectedUpdatedAt,
  onResolved,
  headingLevel: Heading = 'h2',
}: {
  match: PossibleCustomerMatch;
  /** The panel's heading level where it sits (h2 on the work order, h3 inside a lead's details). */
  headingLevel?: 'h2' | 'h3';
  target: CustomerMatchTarget;
  expectedUpdatedAt: string;
  onResolved: (message: string) => void;
}) {
  const titleId = useId();
  const resolve = useResolveCustomerMatch();
  const [error, setError] = useState<string>();

  async function choose(decision: CustomerMatchDecision) {
    setError(undefined);
    try {
      await resolve.mutateAsync({ target, decision, expectedUpdatedAt });
      onResolved(decision === 'same' ? customerMatchMessages.confirmedSame : customerMatchMessages.confirmedNew);
    } catch (caught) {
      const message = caught instanceof ApiError && caught.status === 409 ? caught.message : customerMatchMessages.failed(apiErrorMessage(caught) ?? 'please try again');
      setError(message);
    }
  }

  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-slate-900">
      <Heading id={titleId} className="text-base font-semibold">
        {customerMatchMessages.title}
      </Heading>
      <p className="mt-1">{customerMatchMessages.explanation}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-medium">Customer on file</dt>
        <dd>
          <Link to={customerProfilePath(match.id)} className="text-brand-700 underline">
            {match.name}
          </Link>
        </dd>
        <dt className="font-medium">Phone</dt>
        <dd>{match.phone}</dd>
        <dt className="font-medium">Email</dt>
        <dd className="break-all">{match.email ?? 'Not provided'}</dd>
        <dt className="font-medium">Address</dt>
        <dd>{fullAddress(match)}</dd>
      </dl>
      <p className="mt-3 font-medium" id={`${titleId}-question`}>
        {customerMatchMessages.question}
      </p>
      <div role="group" aria-labelledby={`${titleId}-question`} className="mt-2 flex flex-wrap gap-2">
        <Button onClick={() => void choose('same')} disabled={resolve.isPending}>
          {customerMatchMessages.same}
        </Button>
        <Button variant="secondary" onClick={() => void choose('new')} disabled={resolve.isPending}>
          {customerMatchMessages.new}
        </Button>
      </div>
      <div aria-live="polite" className="mt-2">
        {error ? <Alert>{error}</Alert> : null}
      </div>
    </section>
  );
}
