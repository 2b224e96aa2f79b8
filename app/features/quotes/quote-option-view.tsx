import { Fragment, useId } from 'react';
import { formatCents, formatQuantity } from '#shared/money.ts';
import type { QuoteOption } from '#shared/quote.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';

/**
 * One option of a sent (or answered) quote, read-only: its lines and totals as the customer saw
 * them. `isApproved` marks the option the customer chose; `headingLevel` fits the page around it.
 */
export function QuoteOptionView({ option, isApproved = false, headingLevel = 'h3' }: { option: QuoteOption; isApproved?: boolean; headingLevel?: 'h2' | 'h3' | 'h4' }) {
  const headingId = useId();
  const Heading = headingLevel;
  return (
    <section aria-labelledby={headingId} className={cardClassName(`space-y-3 p-4 ${isApproved ? 'border-green-600 ring-2 ring-green-600' : ''}`)}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading id={headingId} className="text-lg font-semibold break-words text-slate-900">
          {option.name}
        </Heading>
        {isApproved ? <Badge tone="success">Approved option</Badge> : null}
      </div>
      {option.description ? <p className="text-sm break-words whitespace-pre-line text-slate-700">{option.description}</p> : null}
      <OptionLines option={option} />
    </section>
  );
}

/** An option's lines (name, quantity × price, amount) and its totals, phone-friendly (no wide table). */
export function OptionLines({ option }: { option: QuoteOption }) {
  return (
    <>
      {option.lines.length === 0 ? (
        <p className="text-sm text-slate-600">No lines.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {option.lines.map((line) => (
            <li key={line.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
              <span className="min-w-0 break-words">
                {line.code ? <span className="font-mono text-xs text-slate-600">{line.code} </span> : null}
                {line.name}
                <span className="block text-xs text-slate-600">
                  {formatQuantity(line.quantityMilli)} × {formatCents(line.unitPriceCents)}
                  {line.discountBps > 0 ? ` · ${line.discountBps / 100}% off` : ''}
                  {line.discountCents > 0 ? ` · ${formatCents(line.discountCents)} off` : ''}
                  {line.taxable ? ' · taxable' : ''}
                </span>
              </span>
              <span className="font-medium tabular-nums">{formatCents(line.amountCents)}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-4 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right tabular-nums">{formatCents(option.subtotalCents)}</dd>
        {option.taxes.map((tax) => (
          <Fragment key={tax.ratePpm}>
            <dt>{tax.label}</dt>
            <dd className="text-right tabular-nums">{formatCents(tax.taxCents)}</dd>
          </Fragment>
        ))}
        <dt className="font-bold">Total</dt>
        <dd className="text-right font-bold tabular-nums" data-testid="option-total">
          {formatCents(option.totalCents)}
        </dd>
      </dl>
    </>
  );
}
