import { telHref } from '#shared/company-profile.ts';
import { Button } from '#client/components/ui/button.tsx';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

/**
 * What a customer's document link (an invoice's or a quote's) shows when it does not open: a 404
 * is the server's one message for every link that does not open (decision 024-c), so the invoice
 * and the quote pages say the same; anything else offers to try again. Both say how to call us.
 */
export function DocumentLinkProblem({ documentName, error, onRetry }: { documentName: 'Invoice' | 'Quote' | 'Visit'; error: unknown; onRetry: () => void }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <div role="alert" className="mx-auto max-w-xl rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
      <h1 className="text-lg font-semibold">{missing ? `${documentName} link not valid` : `The ${documentName.toLowerCase()} could not be loaded`}</h1>
      <p className="mt-2">{missing ? error.message : messageOf(error)}</p>
      {company.phone ? (
        <p className="mt-2">
          Call us at{' '}
          <a className="underline" href={telHref(company.phone)}>
            {company.phone}
          </a>
          .
        </p>
      ) : null}
      {missing ? null : (
        <Button className="mt-4" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
