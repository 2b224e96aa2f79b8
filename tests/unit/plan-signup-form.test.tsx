// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlanSignupForm } from '#client/features/site/plan-signup-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Sent = { body: Record<string, unknown>; key: string | null };

/** The sign-up endpoint: each answer in turn, recording what was sent. */
function serve(...answers: (() => Response)[]): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    sent.push({ body: JSON.parse(String(init.body)), key: new Headers(init.headers).get('idempotency-key') });
    return answers[sent.length - 1]!();
  });
  return sent;
}

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fillIn(zip: string) {
  fireEvent.change(screen.getByLabelText(/Full name/), { target: { value: 'Morgan Ellis' } });
  fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'morgan@example.com' } });
  fireEvent.change(screen.getByLabelText(/Phone/), { target: { value: '(843) 555-0142' } });
  fireEvent.change(screen.getByLabelText(/Street address of the home/), { target: { value: '12 Heron Point Drive' } });
  fireEvent.change(screen.getByLabelText(/ZIP code/), { target: { value: zip } });
}

describe('PlanSignupForm', () => {
  it('takes the plan the address names, sends the form with an idempotency key and shows the reference', async () => {
    const sent = serve(json(201, { status: 'received', reference: 'PS-1A2B3C4D', payment: { status: 'not_offered' } }));
    render(
      <MemoryRouter initialEntries={['/MaintenancePlan?plan=premium']}>
        <PlanSignupForm />
      </MemoryRouter>,
    );
    expect((screen.getByRole('radio', { name: /^Premium/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /^Monthly/ }));
    fillIn('29910');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const thanks = await screen.findByRole('heading', { name: 'Thank you! We received your sign-up.' });
    await waitFor(() => expect(document.activeElement).toBe(thanks));
    expect(screen.getByRole('status').textContent).toContain('Your reference is PS-1A2B3C4D. Our office will confirm your Premium plan');
    expect(screen.getByRole('status').textContent).toContain('Nothing is charged before then.');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ planId: 'premium', billing: 'monthly', name: 'Morgan Ellis', zip: '29910', website: '' });
    expect(sent[0]!.key).toMatch(/^[\w-]{8,}$/);
  });

  it('shows a ZIP code the server refuses at the ZIP field, focused, and retries with the same key', async () => {
    const message = 'We do not serve that ZIP code with a maintenance plan yet. Please call us at (843) 555-0100: we may still be able to help.';
    const sent = serve(json(400, { error: { code: 'VALIDATION_FAILED', message, details: [{ path: 'zip', message }] } }), () => {
      throw new TypeError('network down');
    });
    render(
      <MemoryRouter initialEntries={['/MaintenancePlan']}>
        <PlanSignupForm />
      </MemoryRouter>,
    );
    fillIn('90210');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const zip = screen.getByLabelText(/ZIP code/);
    await waitFor(() => expect(document.activeElement).toBe(zip));
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(zip.getAttribute('aria-describedby')!)?.textContent).toBe(message);
    expect(sent[0]!.body).toMatchObject({ planId: 'advanced', billing: 'yearly' });

    fireEvent.change(zip, { target: { value: '29910' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByRole('alert')).textContent).toContain('the connection to our server failed');
    expect(sent[1]!.key).toBe(sent[0]!.key);
  });

  it("offers Stripe's page for the first payment, or says plainly when paying online is unavailable", async () => {
    serve(
      json(201, { status: 'received', reference: 'PS-1A2B3C4D', payment: { status: 'checkout', url: 'https://checkout.stripe.com/c/pay/cs_test_a1', amountCents: 2_083 } }),
      json(201, { status: 'received', reference: 'PS-5E6F7A8B', payment: { status: 'unavailable' } }),
    );
    render(
      <MemoryRouter initialEntries={['/MaintenancePlan']}>
        <PlanSignupForm />
      </MemoryRouter>,
    );
    fillIn('29910');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const pay = await screen.findByRole('link', { name: 'Pay $20.83 by card' });
    expect(pay.getAttribute('href')).toBe('https://checkout.stripe.com/c/pay/cs_test_a1');
    expect(screen.queryByText(/Nothing is charged/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Sign up another system' }));
    fillIn('29910');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Paying online is unavailable just now: you can pay when our office confirms your plan.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /by card/ })).toBeNull();
  });

  it('back from Stripe, says the payment is received once recorded, asking again while it is on its way', async () => {
    const answers = [json(200, { status: 'confirming' }), json(200, { status: 'paid' })];
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return answers[Math.min(asked.length, answers.length) - 1]!();
    });
    render(
      <MemoryRouter initialEntries={['/MaintenancePlan?checkout=cs_test_a1Returned']}>
        <PlanSignupForm />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Confirming your payment\u2026' })).toBeTruthy();
    const received = await screen.findByRole('heading', { name: 'Payment received. Thank you!' }, { timeout: 4_000 });
    await waitFor(() => expect(document.activeElement).toBe(received));
    expect(asked).toEqual(['/api/public/maintenance-plan-signups/checkout/cs_test_a1Returned', '/api/public/maintenance-plan-signups/checkout/cs_test_a1Returned']);
  });

  it('back from a cancelled payment, says the sign-up is kept without asking the server', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return json(500, {})();
    });
    render(
      <MemoryRouter initialEntries={['/MaintenancePlan?checkout=cancelled']}>
        <PlanSignupForm />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Your payment was not completed' })).toBeTruthy();
    expect(screen.getByText('Your sign-up is kept: you can pay when our office confirms your plan and calls you.')).toBeTruthy();
    expect(asked).toEqual([]);
  });
});
