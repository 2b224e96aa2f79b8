import type { BillingDocument } from '#shared/billing-document.ts';
import { formatCents, formatQuantity } from '#shared/money.ts';
import { formatDay } from './labels.ts';

const kindTitle = { invoice: 'Invoice', credit_note: 'Credit note', quote: 'Quote' } as const;

/**
 * A quote, invoice or credit note exactly as the customer sees it: drawn from the BillingDocument
 * the PDF also renders (shared/billing-document.ts), so the two show the same content.
 */
export function BillingDocumentView({ document }: { document: BillingDocument }) {
  return (
    <article aria-label={`${kindTitle[document.kind]} ${document.number} as the customer sees it`} className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 text-slate-900 shadow-sm sm:p-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:justify-between">
        <div>
          <p className="text-lg font-bold">{document.company.name}</p>
          {document.company.addressLines.map((line) => (
            <p key={line} className="text-sm text-slate-700">
              {line}
            </p>
          ))}
          {document.company.phone ? <p className="text-sm text-slate-700">{document.company.phone}</p> : null}
          {document.company.email ? <p className="text-sm text-slate-700">{document.company.email}</p> : null}
        </div>
        <div className="sm:text-right">
          <p className="text-2xl font-bold">
            {kindTitle[document.kind]} {document.number}
          </p>
          <p className="text-sm font-semibold text-slate-700">{document.statusLabel}</p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm sm:justify-end">
            {document.issuedOn ? (
              <>
                <dt className="text-slate-700">{document.kind === 'quote' ? 'Date' : 'Issued'}</dt>
                <dd>{formatDay(document.issuedOn)}</dd>
              </>
            ) : null}
            {document.dueOn ? (
              <>
                <dt className="text-slate-700">Due</dt>
                <dd>{formatDay(document.dueOn)}</dd>
              </>
            ) : null}
            {document.validUntil ? (
              <>
                <dt className="text-slate-700">Valid until</dt>
                <dd>{formatDay(document.validUntil)}</dd>
              </>
            ) : null}
          </dl>
        </div>
      </header>

      <section aria-label="Bill to" className="text-sm">
        <p className="font-semibold text-slate-700">Bill to</p>
        <p className="font-medium">{document.customer.name}</p>
        {document.customer.addressLines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        {document.customer.phone ? <p>{document.customer.phone}</p> : null}
        {document.customer.email ? <p>{document.customer.email}</p> : null}
        {document.references.map((reference) => (
          <p key={reference} className="mt-1 text-slate-700">
            {reference}
          </p>
        ))}
      </section>

      {/* On a phone the table may scroll sideways: a focusable region, so a keyboard can scroll it too. */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`${kindTitle[document.kind]} lines`}>
        <table className="min-w-full text-sm">
          <caption className="sr-only">Lines</caption>
          <thead className="border-b border-slate-300 text-left text-slate-700">
            <tr>
              <th scope="col" className="py-2 pr-3">Item</th>
              <th scope="col" className="py-2 pr-3 text-right">Qty</th>
              <th scope="col" className="py-2 pr-3 text-right">Unit price</th>
              <th scope="col" className="py-2 pr-3 text-right">Discount</th>
              <th scope="col" className="py-2 text-right">Amount</th>
            </tr>
          </thead>
          <tbody>
            {document.lines.map((line, index) => (
              <tr key={index} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3">
                  <span className="font-medium">{line.name}</span>
                  {line.code ? <span className="text-slate-600"> · {line.code}</span> : null}
                  {line.taxable ? <span className="text-slate-600"> · Taxable</span> : null}
                  {line.description ? <span className="block text-slate-700">{line.description}</span> : null}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatQuantity(line.quantityMilli)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(line.unitPriceCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">{line.discountCents ? `−${formatCents(line.discountCents)}` : ''}</td>
                <td className="py-2 text-right tabular-nums">{formatCents(line.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <dl className="ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right tabular-nums">{formatCents(document.subtotalCents)}</dd>
        {document.discountCents ? (
          <>
            <dt className="text-slate-700">Discounts included</dt>
            <dd className="text-right tabular-nums text-slate-700">−{formatCents(document.discountCents)}</dd>
          </>
        ) : null}
        {document.taxes.map((tax) => (
          <FragmentRow key={tax.ratePpm} label={`${tax.label} on ${formatCents(tax.taxableCents)}`} value={formatCents(tax.taxCents)} />
        ))}
        <dt className="font-bold">Total</dt>
        <dd className="text-right font-bold tabular-nums">{formatCents(document.totalCents)}</dd>
        {document.payments.map((payment, index) => (
          <FragmentRow key={index} label={`${payment.label}, ${formatDay(payment.receivedOn)}`} value={payment.amountCents < 0 ? `+${formatCents(-payment.amountCents)}` : `−${formatCents(payment.amountCents)}`} />
        ))}
        {document.balanceCents !== undefined ? (
          <>
            <dt className="border-t border-slate-300 pt-1 font-bold">Balance due</dt>
            <dd className="border-t border-slate-300 pt-1 text-right font-bold tabular-nums" data-testid="document-balance">
              {formatCents(document.balanceCents)}
            </dd>
          </>
        ) : null}
      </dl>

      {document.notes ? <p className="text-sm whitespace-pre-line">{document.notes}</p> : null}
      {document.footer ? <p className="border-t border-slate-200 pt-3 text-sm whitespace-pre-line text-slate-700">{document.footer}</p> : null}
    </article>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-slate-700">{label}</dt>
      <dd className="text-right tabular-nums">{value}</dd>
    </>
  );
}
