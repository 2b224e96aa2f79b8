// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerListItem } from '#shared/customer.ts';
import { CustomerPicker, type PickedCustomer } from '#client/features/customers/index.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const carol = { id: 'c1', name: 'Carol Jones', phone: '843-555-0101', address: '1 Palm Way', city: 'Bluffton', state: 'SC', zip: '29910' } as CustomerListItem;

/** The lookup endpoint, recording each query it was asked. */
function serveLookup() {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(new URL(url, 'http://x').searchParams.get('q') ?? '');
    return new Response(JSON.stringify({ customers: [carol] }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

function renderPicker(node: React.ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queryClient}>{node}</QueryClientProvider>);
}

function SelectingPicker() {
  const [picked, setPicked] = useState<PickedCustomer>();
  return <CustomerPicker picked={picked} onPick={setPicked} onClear={() => setPicked(undefined)} />;
}

describe('CustomerPicker', () => {
  it('asks the server once typing pauses, with at least 2 characters, and shows the pick with Change Customer', async () => {
    const asked = serveLookup();
    renderPicker(<SelectingPicker />);
    const box = screen.getByLabelText('Search customers by name or phone');
    fireEvent.change(box, { target: { value: 'C' } });
    fireEvent.change(box, { target: { value: 'Ca' } });
    fireEvent.change(box, { target: { value: 'Car' } });
    fireEvent.click(await screen.findByRole('button', { name: /Carol Jones/ }));
    expect(asked).toEqual(['Car']);
    expect(screen.getByText('Selected customer:')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change Customer' }));
    expect(screen.getByLabelText('Search customers by name or phone')).toBeTruthy();
  });

  it('without a selection to show, empties its box after a pick (the lead conversion)', async () => {
    serveLookup();
    const onPick = vi.fn();
    renderPicker(<CustomerPicker label="Find another customer" hint="(name or phone)" placeholder={null} onPick={onPick} />);
    const box = screen.getByLabelText(/Find another customer/) as HTMLInputElement;
    expect(box.hasAttribute('placeholder')).toBe(false);
    fireEvent.change(box, { target: { value: 'Carol' } });
    fireEvent.click(await screen.findByRole('button', { name: /Carol Jones/ }));
    expect(onPick).toHaveBeenCalledWith(carol);
    expect(box.value).toBe('');
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Matching customers' })).toBeNull());
  });
});
