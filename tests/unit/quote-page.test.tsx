// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCents } from '#shared/money.ts';
import { publicQuoteResponseSchema, quoteMessages, type PublicQuoteResponse } from '#shared/quote.ts';
import { QuotePage } from '#client/features/quote-link/index.ts';
import { billingDocument, company, fixtureLines } from '#tests/support/billing-document-fixtures.ts';

// The customer's quote page (decision 025-d) in the states a journey cannot reach on a real-time
// server: an expired quote, and a quote that expires between loading and approving (409). The
// API answers are the contract's shape (publicQuoteResponseSchema); fetch is the only stand-in.

type Request = { method: string; url: string; body: unknown };

function serveApi(answer: (request: Request) => { status?: number; body: unknown }) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const request = { method: init.method ?? 'GET', url, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
    requests.push(request);
    const reply = answer(request);
    return Response.json(reply.body, { status: reply.status ?? 200 });
  });
  return requests;
}

function quote(status: PublicQuoteResponse['status']): PublicQuoteResponse {
  const options = [
    { id: '0b8f7d0e-1c51-4f3e-9d5e-7a0c2f1e0001', name: 'Repair', lines: fixtureLines(2) },
    { id: '0b8f7d0e-1c51-4f3e-9d5e-7a0c2f1e0002', name: 'New condenser', lines: fixtureLines(4) },
    { id: '0b8f7d0e-1c51-4f3e-9d5e-7a0c2f1e0003', name: 'New system', lines: fixtureLines(6) },
  ];
  return publicQuoteResponseSchema.parse({
    quoteNumber: 'Q-000057',
    title: 'Upstairs AC',
    status,
    validUntil: '2026-11-01',
    notes: '',
    company,
    customer: { name: 'Marisol Okafor-Trần', addressLines: ['18 Calhoun Street'] },
    options: options.map((option) => ({
      id: option.id,
      name: option.name,
      description: '',
      document: billingDocument('quote', option.lines, { number: 'Q-000057', statusLabel: status === 'expired' ? 'Expired' : 'Waiting for the customer', references: ['Upstairs AC', `Option: ${option.name}`] }),
    })),
    approvedOptionId: null,
    approvedByName: null,
    approvedAt: null,
    declinedAt: null,
  });
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <QuotePage token="tok" />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the customer quote page', () => {
  it('an expired quote says so, with the phone to call, and offers no approval', async () => {
    const expired = quote('expired');
    serveApi(() => ({ body: expired }));
    renderPage();
    const heading = await screen.findByRole('heading', { level: 2, name: 'This quote has expired' });
    const outcome = heading.closest('section')!;
    expect(outcome.textContent).toContain(quoteMessages.expired);
    expect(within(outcome).getByRole('link', { name: company.phone! }).getAttribute('href')).toBe('tel:8435550142');
    // The options stay readable, none to choose.
    expect(screen.getAllByTestId('option-total').map((total) => total.textContent)).toEqual(expired.options.map((option) => formatCents(option.document.totalCents)));
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve quote' })).toBeNull();
  });

  it('checks the form with the server schema before sending, and announces what is missing', async () => {
    const requests = serveApi(() => ({ body: quote('sent') }));
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve quote' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(quoteMessages.optionNotFound);
    expect(alert.textContent).toContain('Type your full name');
    expect(alert.textContent).toContain('Tick the box to approve');
    expect(alert.closest('[aria-live="assertive"]')).not.toBeNull();
    expect(document.activeElement).toBe(screen.getAllByRole('radio')[0]);
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('aria-invalid'))).toEqual(['true', 'true', 'true']);
    expect(screen.getByRole('group', { name: 'Choose an option' })).toBeTruthy();
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);

    // Choosing an option clears its error; the name is now the first problem.
    await user.click(screen.getByRole('radio', { name: /New condenser/ }));
    await user.click(screen.getByRole('button', { name: 'Approve quote' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).not.toContain(quoteMessages.optionNotFound));
    expect(document.activeElement).toBe(screen.getByLabelText(/Your full name/));
    expect(screen.getByLabelText(/Your full name/).getAttribute('aria-invalid')).toBe('true');
  });

  it('a quote that expired meanwhile: the refusal is shown and the page turns to the expired state', async () => {
    let current = quote('sent');
    const requests = serveApi((request) => {
      if (request.method === 'POST') {
        current = quote('expired');
        return { status: 409, body: { error: { code: 'CONFLICT', message: quoteMessages.expired } } };
      }
      return { body: current };
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /New system/ }));
    await user.type(screen.getByLabelText(/Your full name/), 'Marisol Okafor');
    await user.click(screen.getByLabelText('I approve this quote and authorize the work'));
    await user.click(screen.getByRole('button', { name: 'Approve quote' }));

    const heading = await screen.findByRole('heading', { level: 2, name: 'This quote has expired' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const approval = requests.find((request) => request.method === 'POST')!;
    expect(approval.url).toBe('/api/public/quotes/tok/approve');
    expect(approval.body).toEqual({ optionId: current.options[2]!.id, name: 'Marisol Okafor', accepted: true, signature: null });
  });
});
