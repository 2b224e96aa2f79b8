import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { formatCents } from '#shared/money.ts';
import type { PriceBookItem } from '#shared/price-book.ts';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { usePriceBookList } from './price-book-api.ts';

const resultLimit = 8;
const debounceMs = 200;

/**
 * Picks an active price-book item for a quote or invoice line (the ARIA 1.2 combobox pattern): type
 * to search (code, name, category, description), Up and Down move through the results, Enter picks,
 * Escape closes. The picked item is handed to `onPick`; the box empties for the next line.
 */
export function PriceBookPicker({
  label = 'Add from the price book',
  onPick,
  placeholder = 'Search code or name',
  disabled = false,
}: {
  label?: string;
  onPick: (item: PriceBookItem) => void;
  placeholder?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [isOpen, setIsOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);

  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(text.trim()), debounceMs);
    return () => window.clearTimeout(timer);
  }, [text]);

  const results = usePriceBookList({ q: query, active: 'active', pageSize: resultLimit, sort: 'name' }, { enabled: isOpen && query.length > 0 });
  const items = query.length > 0 ? (results.data?.items ?? []) : [];
  const isShowing = isOpen && query.length > 0;

  function pick(item: PriceBookItem) {
    onPick(item);
    setText('');
    setQuery('');
    setIsOpen(false);
    setActiveIndex(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setIsOpen(true);
      setActiveIndex((index) => (items.length === 0 ? -1 : (index + 1) % items.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setIsOpen(true);
      setActiveIndex((index) => (items.length === 0 ? -1 : index <= 0 ? items.length - 1 : index - 1));
    } else if (event.key === 'Enter') {
      const item = items[activeIndex] ?? (items.length === 1 ? items[0] : undefined);
      if (isShowing && item) {
        event.preventDefault();
        pick(item);
      }
    } else if (event.key === 'Escape') {
      if (isOpen) {
        event.preventDefault();
        setIsOpen(false);
        setActiveIndex(-1);
      }
    }
  }

  const status = !isShowing ? '' : results.isFetching && items.length === 0 ? 'Searching…' : items.length === 0 ? 'No active item matches.' : `${items.length} item${items.length === 1 ? '' : 's'} found.`;

  return (
    <div className="relative">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        aria-expanded={isShowing && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={isShowing && activeIndex >= 0 && items[activeIndex] ? `${id}-option-${activeIndex}` : undefined}
        value={text}
        disabled={disabled}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value);
          setIsOpen(true);
          setActiveIndex(-1);
        }}
        onFocus={() => setIsOpen(true)}
        onBlur={() => setIsOpen(false)}
        onKeyDown={onKeyDown}
        className={controlClass}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!isShowing || items.length === 0}
        className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      >
        {items.map((item, index) => (
          <li
            key={item.id}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === activeIndex}
            // mousedown, not click: it comes before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(item);
            }}
            onMouseMove={() => setActiveIndex(index)}
            className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-2 text-sm ${index === activeIndex ? 'bg-brand-50 text-brand-900' : 'text-slate-900'}`}
          >
            <span>
              <span className="font-mono text-xs text-slate-600">{item.code}</span> {item.name}
            </span>
            <span className="whitespace-nowrap">
              {formatCents(item.priceCents)}
              <span className="text-xs text-slate-600"> / {item.unit}</span>
            </span>
          </li>
        ))}
      </ul>
      <p role="status" className="sr-only">
        {status}
      </p>
    </div>
  );
}
