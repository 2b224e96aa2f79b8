// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PriceBookItem, PriceBookListResponse } from '#shared/price-book.ts';
import { blankDraftLine, DocumentLinesFields, readDraftLines, type DraftLine } from '#client/features/invoices/index.ts';

// The line fields shared by invoice drafts and quote options (decision 025-f): what they send,
// what they refuse, the live totals, the price-book picker and the focus after "Add line".

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const line = (change: Partial<DraftLine>): DraftLine => ({ ...blankDraftLine(60_000), ...change });

describe('readDraftLines', () => {
  it('turns typed text into the API values and the totals by the shared money rule', () => {
    const read = readDraftLines([
      line({ name: ' Labor ', quantity: '2', unitPrice: '95' }),
      line({ name: 'Thermostat', unitPrice: '150.00', taxable: true, taxRate: '6' }),
      line({ name: 'Warranty', unitPrice: '600', discountPercent: '10', discountAmount: '5' }),
    ]);
    expect(read.ruleError).toBeUndefined();
    expect(read.values?.map((value) => [value.name, value.quantityMilli, value.unitPriceCents, value.discountBps, value.discountCents, value.taxRatePpm])).toEqual([
      ['Labor', 2000, 9500, 0, 0, 0],
      ['Thermostat', 1000, 15000, 0, 0, 60_000],
      ['Warranty', 1000, 60000, 1000, 500, 0],
    ]);
    // 190 + 150 + (600 - 60 - 5) = 875.00, and 6 % of 150 = 9.00.
    expect(read.totals?.subtotalCents).toBe(87_500);
    expect(read.totals?.taxCents).toBe(900);
    expect(read.totals?.totalCents).toBe(88_400);
  });

  it('names the field of each line that does not parse, and sends nothing', () => {
    const read = readDraftLines([line({ name: '', unitPrice: 'abc', quantity: '0' }), line({ name: 'Ok', unitPrice: '1', discountPercent: '120', taxable: true, taxRate: 'x' })]);
    expect(read.values).toBeUndefined();
    expect(read.lineErrors[0]).toEqual({ name: 'Name the line', quantity: 'A quantity above 0, up to 3 decimals', unitPrice: 'A price like 89 or 89.50' });
    expect(read.lineErrors[1]).toEqual({ discountPercent: '0 to 100', taxRate: 'A rate like 6 or 8.875' });
  });

  it('refuses a discount past its line and a negative total with the money rule’s words', () => {
    const pastItsLine = readDraftLines([line({ name: 'Filter', unitPrice: '20', discountAmount: '25' })]);
    expect(pastItsLine.values).toBeUndefined();
    expect(pastItsLine.ruleError).toBe('A discount cannot exceed the line amount.');
    const negative = readDraftLines([line({ name: 'Coupon', unitPrice: '-50' })]);
    expect(negative.values).toBeUndefined();
    expect(negative.ruleError).toBe('The total cannot be negative.');
    expect(readDraftLines([]).values).toEqual([]);
  });
});

const item: PriceBookItem = {
  id: '5d0f8f4e-3a43-4a8e-9d0b-2f7d8c1e6a10',
  kind: 'equipment',
  code: 'COND-3T',
  name: 'Condenser 3 ton',
  description: '14 SEER2',
  category: 'Equipment',
  unit: 'each',
  priceCents: 240_000,
  costCents: 150_000,
  taxable: true,
  active: true,
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
};

function Harness({ initial, minLines }: { initial: DraftLine[]; minLines: 0 | 1 }) {
  const [lines, setLines] = useState(initial);
  return <DocumentLinesFields lines={lines} onChange={setLines} defaultTaxRatePpm={60_000} showErrors={false} minLines={minLines} />;
}

function renderFields(initial: DraftLine[], minLines: 0 | 1) {
  vi.stubGlobal('fetch', async () => {
    const body: PriceBookListResponse = { items: [item], total: 1, page: 1, pageSize: 8, categories: [] };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <Harness initial={initial} minLines={minLines} />
    </QueryClientProvider>,
  );
}

async function pickCondenser() {
  const box = screen.getByRole('combobox', { name: 'Add from the price book' });
  fireEvent.focus(box);
  fireEvent.change(box, { target: { value: 'cond' } });
  await screen.findByRole('option');
  fireEvent.keyDown(box, { key: 'Enter' });
}

describe('DocumentLinesFields', () => {
  it('a picked item takes the place of the empty line a draft starts with, and the totals follow', async () => {
    renderFields([blankDraftLine(60_000)], 1);
    await pickCondenser();
    expect(screen.getAllByRole('group', { name: /^Line \d$/ })).toHaveLength(1);
    expect((screen.getByLabelText('Name, line 1') as HTMLInputElement).value).toBe('Condenser 3 ton');
    expect((screen.getByLabelText('Unit price ($), line 1') as HTMLInputElement).value).toBe('2400.00');
    expect((screen.getByLabelText('Taxable, line 1') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Price book COND-3T')).toBeTruthy();
    // 2,400 + 6 % tax.
    expect(screen.getByTestId('editor-total').textContent).toBe('$2,544.00');
    // The only line of an invoice cannot be removed.
    expect(screen.queryByRole('button', { name: 'Remove line 1' })).toBeNull();
  });

  it('"Add line" puts the focus in the new line, and an option may drop to no lines', async () => {
    renderFields([], 0);
    expect(screen.getByText('No lines yet: add one, or pick one from the price book.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    const name = screen.getByLabelText('Name, line 1');
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'Labor' } });
    fireEvent.change(screen.getByLabelText('Unit price ($), line 1'), { target: { value: '95' } });
    fireEvent.change(screen.getByLabelText('Quantity, line 1'), { target: { value: '1.5' } });
    expect(within(screen.getByRole('group', { name: 'Line 1' })).getByText('$142.50')).toBeTruthy();
    expect(screen.getByTestId('editor-total').textContent).toBe('$142.50');
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 1' }));
    expect(screen.queryAllByRole('group', { name: /^Line \d$/ })).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add line' }));
    expect(screen.getByTestId('editor-total').textContent).toBe('$0.00');
  });
});
