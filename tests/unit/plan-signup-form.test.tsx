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
    const sent = serve(json(201, { status: 'received', reference: 'PS-1A2B3C4D' }));
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
});
