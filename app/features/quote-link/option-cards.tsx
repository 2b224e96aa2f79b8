import { useId, type Ref } from 'react';
import { formatCents, formatQuantity } from '#shared/money.ts';
import { tierLabel, type PublicQuoteOption } from './labels.ts';

/** Side by side from the tablet width up (one column per option), stacked on a phone. */
const columnClass: Record<number, string> = {
  1: 'md:grid-cols-1 md:max-w-md',
  2: 'md:grid-cols-2',
  3: 'md:grid-cols-3',
  4: 'md:grid-cols-2 xl:grid-cols-4',
  5: 'md:grid-cols-3',
};

type Choosing = {
  /** The radio group's name and legend; the chosen option; called with the option picked. */
  legend: string;
  chosenId: string | undefined;
  onChoose: (optionId: string) => void;
  error?: string;
  errorId?: string;
  firstRadioRef?: Ref<HTMLInputElement>;
};

/**
 * The quote's options as cards, good / better / best: each with its lines and total. With
 * `choosing`, a radio group (native radios: arrow keys move between them, the whole card is the
 * click target, the chosen one framed and badged); without, read-only.
 */
export function OptionCards({ options, choosing }: { options: PublicQuoteOption[]; choosing?: Choosing }) {
  const groupName = useId();
  const cards = (
    <div className={`grid grid-cols-1 gap-4 ${columnClass[options.length] ?? 'md:grid-cols-3'}`}>
      {options.map((option, index) => {
        return (
          <OptionCard
            key={option.id}
            option={option}
            tier={tierLabel(index, options.length)}
            isChosen={choosing?.chosenId === option.id}
            radio={choosing ? { name: groupName, onChoose: choosing.onChoose, errorId: choosing.error ? choosing.errorId : undefined } : undefined}
            radioRef={index === 0 ? choosing?.firstRadioRef : undefined}
          />
        );
      })}
    </div>
  );
  if (!choosing) return cards;
  return (
    <fieldset aria-describedby={choosing.error ? choosing.errorId : undefined}>
      <legend className="mb-3">
        <h2 className="text-xl font-semibold text-slate-900">{choosing.legend}</h2>
      </legend>
      {choosing.error ? (
        <p id={choosing.errorId} className="mb-3 text-sm font-medium text-red-700">
          {choosing.error}
        </p>
      ) : null}
      {cards}
    </fieldset>
  );
}

function OptionCard({
  option,
  tier,
  isChosen,
  radio,
  radioRef,
}: {
  option: PublicQuoteOption;
  tier: string | undefined;
  isChosen: boolean;
  radio?: { name: string; onChoose: (optionId: string) => void; errorId?: string };
  radioRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const { document } = option;
  const frame = isChosen ? 'border-brand-700 ring-2 ring-brand-700 bg-brand-50' : 'border-slate-300 bg-white';
  // Spans only: the whole card may be the radio's <label>, which holds phrasing content.
  const body = (
    <>
      <span className="flex items-start gap-3">
        {radio ? (
          <input
            ref={radioRef}
            type="radio"
            name={radio.name}
            value={option.id}
            checked={isChosen}
            onChange={() => radio.onChoose(option.id)}
            aria-labelledby={`${id}-name ${id}-total`}
            aria-describedby={[radio.errorId ?? '', option.description ? `${id}-description` : '', `${id}-lines`].filter(Boolean).join(' ')}
            aria-invalid={radio.errorId ? true : undefined}
            className="mt-1 size-5 shrink-0 accent-brand-700"
          />
        ) : null}
        <span className="min-w-0 flex-1">
          <span id={`${id}-name`} className="block">
            {tier ? <span className="block text-xs font-bold tracking-wide text-brand-700 uppercase">{tier}</span> : null}
            <span className="block text-lg leading-snug font-bold text-slate-900">{option.name}</span>
          </span>
        </span>
        {/* Laid out on every card of the group, shown on the chosen one only: choosing moves nothing. */}
        {radio ? (
          <span aria-hidden={!isChosen} className={`shrink-0 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white ${isChosen ? '' : 'invisible'}`}>
            Your choice
          </span>
        ) : null}
      </span>
      {option.description ? (
        <span id={`${id}-description`} className="mt-2 block text-sm whitespace-pre-line text-slate-700">
          {option.description}
        </span>
      ) : null}
      <span id={`${id}-lines`} className="mt-3 block flex-1 border-t border-slate-200 pt-2 text-sm">
        <span className="sr-only">Includes: </span>
        {document.lines.map((line, index) => (
          <span key={index} className="flex justify-between gap-3 py-1">
            <span className="min-w-0">
              {line.name}
              {line.quantityMilli !== 1000 ? <span className="text-slate-600"> × {formatQuantity(line.quantityMilli)}</span> : null}
              {index < document.lines.length - 1 ? <span className="sr-only">,</span> : null}
            </span>
            <span className="shrink-0 tabular-nums text-slate-800">{formatCents(line.amountCents)}</span>
          </span>
        ))}
        {document.taxes.map((tax) => (
          <span key={tax.ratePpm} className="flex justify-between gap-3 py-1 text-slate-700">
            <span>{tax.label}</span>
            <span className="tabular-nums">{formatCents(tax.taxCents)}</span>
          </span>
        ))}
      </span>
      <span className="mt-3 flex items-baseline justify-between gap-3 border-t border-slate-300 pt-3">
        <span className="text-sm font-semibold text-slate-700">Total</span>
        <span id={`${id}-total`} className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="option-total">
          {formatCents(document.totalCents)}
        </span>
      </span>
    </>
  );
  const className = `flex flex-col rounded-xl border-2 p-4 shadow-sm ${frame}`;
  if (radio) {
    return (
      <label className={`${className} cursor-pointer transition-colors hover:border-brand-600 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500`}>
        {body}
      </label>
    );
  }
  return (
    <section aria-labelledby={`${id}-name`} className={className}>
      {body}
    </section>
  );
}
