// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PriceBookItem, PriceBookListResponse } from '#shared/price-book.ts';
import { PriceBookPicker } from '#client/features/price-book/index.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const item = (code: string, name: string, priceCents: number): PriceBookItem => ({
  id: `id-${code}`,
  kind: 'part',
  code,
  name,
  description: '',
  category: 'Electrical',
  unit: 'each',
  priceCents,
  costCents: 0,
  taxable: true,
  active: true,
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
});
const items = [item('CAP-35-5', 'Dual run capacitor 35/5', 8900), item('CAP-45-5', 'Dual run capacitor 45/5', 9500)];

/** The list endpoint, recording each query string it was asked. */
function serveList() {
  const asked: URLSearchParams[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(new URL(url, 'http://x').searchParams);
    const body: PriceBookListResponse = { items, total: items.length, page: 1, pageSize: 8, categories: [] };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

function renderPicker(onPick: (picked: PriceBookItem) => void) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <PriceBookPicker onPick={onPick} />
    </QueryClientProvider>,
  );
}

describe('PriceBookPicker (ARIA combobox)', () => {
  it('searches active items as one types, moves with the arrow keys and picks with Enter', async () => {
    const asked = serveList();
    const onPick = vi.fn();
    renderPicker(onPick);
    const box = screen.getByRole('combobox', { name: 'Add from the price book' }) as HTMLInputElement;
    expect(box.getAttribute('aria-expanded')).toBe('false');
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'cap' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['CAP-35-5 Dual run capacitor 35/5$89.00 / each', 'CAP-45-5 Dual run capacitor 45/5$95.00 / each']);
    expect(asked.at(-1)?.get('q')).toBe('cap');
    expect(asked.at(-1)?.get('active')).toBe('active');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);

    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(items[1]);
    expect(box.value).toBe('');
    await waitFor(() => expect(screen.queryAllByRole('option')).toHaveLength(0));
  });

  it('closes with Escape without picking, and picks with a press on an option', async () => {
    serveList();
    const onPick = vi.fn();
    renderPicker(onPick);
    const box = screen.getByRole('combobox');
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'capacitor' } });
    await screen.findAllByRole('option');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(onPick).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: 'capacitor 3' } });
    const [first] = await screen.findAllByRole('option');
    fireEvent.mouseDown(first!);
    expect(onPick).toHaveBeenCalledWith(items[0]);
  });
});
