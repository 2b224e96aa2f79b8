// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  defaultMessageTemplates,
  messageVariableNames,
  messageVariables,
  type Consent,
  type Message,
  type StoredMessageTemplate,
} from '#shared/messaging.ts';
import { CustomerMessagesSection } from '#client/features/messaging/index.ts';
import { MessageTemplateEditor } from '#client/features/settings/message-template-editor.tsx';
import { MessagesPanel } from '#client/features/settings/messages-panel.tsx';
import { WorkOrderMessagesCard } from '#client/features/work-orders/work-order-messages.tsx';
import type { WorkOrder } from '#shared/work-order.ts';

type Request = { method: string; url: string; body: unknown };

/** The API as these screens see it: `answer` picks the reply for each request; every request is recorded. */
function serveApi(answer: (request: Request) => { status?: number; body: unknown } | undefined) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const request = { method: init.method ?? 'GET', url, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
    requests.push(request);
    if (url === '/api/admin/session') return Response.json({ user: { id: 'u1', email: 'pat@lowcountry.example', name: 'Pat Admin', role: 'admin' } });
    const reply = answer(request);
    if (!reply) return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 });
    return Response.json(reply.body, { status: reply.status ?? 200 });
  });
  return requests;
}

function renderWithQueries(element: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '/', element }], { initialEntries: ['/'] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const variables = messageVariableNames.map((name) => ({ name, label: messageVariables[name].label, sample: messageVariables[name].sample }));

function storedTemplate(overrides: Partial<StoredMessageTemplate> = {}): StoredMessageTemplate {
  return { type: 'appointment_confirmed', ...defaultMessageTemplates.appointment_confirmed, isDefault: true, updatedAt: null, ...overrides };
}

describe('Settings > Messages: a template', () => {
  it('previews as you type: the e-mail with the sample values, the text with its length and segments', async () => {
    serveApi(() => undefined);
    renderWithQueries(<MessageTemplateEditor template={storedTemplate()} variables={variables} />);
    const user = userEvent.setup();
    // The built-in text, rendered with the samples, fits one text message.
    expect(screen.getByText(/^Hi Dana, your visit is booked for Tuesday, December 1, 8:00 AM - 10:00 AM\./)).toBeTruthy();
    expect(screen.getByText(/^\d+ characters, 1 text message$/)).toBeTruthy();
    expect(screen.getByText('Your visit is booked: Tuesday, December 1')).toBeTruthy();

    const textBody = screen.getByLabelText(/^Text body/);
    await user.clear(textBody);
    await user.type(textBody, 'a'.repeat(150));
    // 150 + " Reply STOP to opt out." (23) = 173 GSM-7 characters: two segments of 153.
    expect(screen.getByText('173 characters, 2 text messages (153 characters each)')).toBeTruthy();

    await user.clear(textBody);
    await user.type(textBody, 'Merci ✓');
    expect(screen.getByText('30 characters, 1 text message (a special character limits each to 70)')).toBeTruthy();
    expect(screen.getByText('Merci ✓ Reply STOP to opt out.')).toBeTruthy();
  });

  it('shows the problems as field errors while typing and sends nothing while they stand', async () => {
    const requests = serveApi(() => undefined);
    renderWithQueries(<MessageTemplateEditor template={storedTemplate()} variables={variables} />);
    const user = userEvent.setup();
    const subject = screen.getByLabelText(/^Subject/);
    await user.clear(subject);
    await user.type(subject, 'Hello {{{{customer.lastName}}');
    expect(subject.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(subject.getAttribute('aria-describedby') ?? '');
    expect(error?.textContent).toMatch(/^Unknown variable \{\{customer\.lastName\}\}; use one of/);

    const emailBody = screen.getByLabelText(/^E-mail body/);
    await user.clear(emailBody);
    expect(screen.getByText('E-mail body is required.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The template has problems; see the fields marked in red.');
    expect(document.activeElement).toBe(subject);
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('inserts a variable at the cursor of the field last used and saves the template', async () => {
    const requests = serveApi((request) =>
      request.method === 'PUT' ? { body: { template: storedTemplate({ ...(request.body as object), isDefault: false, updatedAt: '2026-11-25T12:00:00Z' }) } } : undefined,
    );
    renderWithQueries(<MessageTemplateEditor template={storedTemplate()} variables={variables} />);
    const user = userEvent.setup();
    const subject = screen.getByLabelText<HTMLInputElement>(/^Subject/);
    await user.clear(subject);
    await user.type(subject, 'See you,  soon');
    subject.setSelectionRange(9, 9); // between the two spaces
    expect(screen.getByRole('group', { name: 'Insert a variable into the subject' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Customer's first name/ }));
    expect(subject.value).toBe('See you, {{customer.firstName}} soon');
    await waitFor(() => expect(document.activeElement).toBe(subject));
    expect(screen.getByText('See you, Dana soon')).toBeTruthy();

    // Not the default any more: no "Restore default" until it is saved as an edit.
    expect(screen.queryByRole('button', { name: 'Restore default' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    expect((await screen.findByRole('status')).textContent).toBe('Appointment confirmed saved. New messages use it.');
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.url).toBe('/api/admin/settings/message-templates/appointment_confirmed');
    expect(put?.body).toEqual({
      subject: 'See you, {{customer.firstName}} soon',
      emailBody: defaultMessageTemplates.appointment_confirmed.emailBody,
      smsBody: defaultMessageTemplates.appointment_confirmed.smsBody,
    });
  });

  it('restores an edited template to the default after asking', async () => {
    const requests = serveApi((request) => (request.method === 'DELETE' ? { body: { template: storedTemplate() } } : undefined));
    renderWithQueries(<MessageTemplateEditor template={storedTemplate({ subject: 'Booked!', isDefault: false, updatedAt: '2026-11-20T12:00:00Z' })} variables={variables} />);
    const user = userEvent.setup();
    expect(screen.getByLabelText<HTMLInputElement>(/^Subject/).value).toBe('Booked!');
    await user.click(screen.getByRole('button', { name: 'Restore default' }));
    const dialog = screen.getByRole('dialog', { name: 'Restore the default appointment confirmed?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore default' }));
    expect((await screen.findByRole('status')).textContent).toBe('Appointment confirmed is back to the built-in default.');
    expect(screen.getByLabelText<HTMLInputElement>(/^Subject/).value).toBe(defaultMessageTemplates.appointment_confirmed.subject);
    expect(requests.find((request) => request.method === 'DELETE')?.url).toBe('/api/admin/settings/message-templates/appointment_confirmed');
  });

  it('sends a test to the signed-in user’s e-mail, or to a phone, and says where it went', async () => {
    const requests = serveApi((request) =>
      request.method === 'POST'
        ? { status: 200, body: { channel: (request.body as { channel: 'email' | 'sms' }).channel, sentTo: (request.body as { channel: string; to: string }).channel === 'sms' ? '+18435550100' : (request.body as { to: string }).to, subject: '[Test] x' } }
        : undefined,
    );
    renderWithQueries(<MessageTemplateEditor template={storedTemplate()} variables={variables} />);
    const { subject, emailBody, smsBody } = storedTemplate();
    // What the editor holds, saved or not, is what the test sends.
    const templateValues = { subject, emailBody, smsBody };
    const user = userEvent.setup();
    const address = await screen.findByDisplayValue('pat@lowcountry.example');
    expect(address.getAttribute('type')).toBe('email');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect((await screen.findByText(/^Test e-mail sent to/)).textContent).toBe('Test e-mail sent to pat@lowcountry.example.');

    await user.selectOptions(screen.getByLabelText('Send by'), 'sms');
    const phone = screen.getByLabelText('Mobile number');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect(screen.getByText('Enter the mobile number to send the test to.')).toBeTruthy();
    await user.type(phone, '843-555-0100');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect((await screen.findByText(/^Test text sent to/)).textContent).toBe('Test text sent to +18435550100.');
    expect(requests.filter((request) => request.method === 'POST').map((request) => [request.url, request.body])).toEqual([
      ['/api/admin/settings/message-templates/appointment_confirmed/test', { ...templateValues, channel: 'email', to: 'pat@lowcountry.example' }],
      ['/api/admin/settings/message-templates/appointment_confirmed/test', { ...templateValues, channel: 'sms', to: '843-555-0100' }],
    ]);
  });
});

function message(overrides: Partial<Message>): Message {
  return {
    id: 'm1',
    type: 'appointment_confirmed',
    channel: 'email',
    status: 'sent',
    recipient: 'dana@example.com',
    customerId: 'c1',
    workOrderId: 'w1',
    workOrderNumber: 'WO-10042',
    appointmentVersion: null,
    sendAt: '2026-11-12T14:00:00Z',
    sentAt: '2026-11-12T14:00:05Z',
    attempts: 1,
    lastError: null,
    subject: 'Your visit is booked',
    body: 'Hi Dana',
    createdAt: '2026-11-12T14:00:00Z',
    ...overrides,
  };
}

function consent(overrides: Partial<Consent>): Consent {
  return { channel: 'sms', status: 'default', source: null, changedAt: null, changedByName: null, isSending: false, undeliverableAt: null, undeliverableNumber: null, ...overrides };
}

describe('Customer profile > Messages', () => {
  it('states each channel’s consent in words, with the undeliverable number warning', async () => {
    serveApi((request) =>
      request.url === '/api/admin/customers/c1/messaging'
        ? {
            body: {
              consents: [
                consent({ status: 'opted_in', source: 'form', changedAt: '2026-11-12T15:00:00Z', isSending: true, undeliverableAt: '2026-11-20T15:00:00Z', undeliverableNumber: '+18435550100' }),
                consent({ channel: 'email', isSending: true }),
              ],
              messages: [],
            },
          }
        : undefined,
    );
    renderWithQueries(<CustomerMessagesSection customerId="c1" />);
    const items = within(await screen.findByRole('list', { name: 'Consent by channel' })).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('E-mail: sending (default)');
    expect(items[1]!.textContent).toContain('Texts: opted in by the customer on the estimate form, 12 Nov 2026');
    expect(items[1]!.textContent).toContain('The number +18435550100 cannot receive texts');
    expect(screen.getByText('No messages to this customer yet.')).toBeTruthy();
  });

  it('opts in to texts only after staff confirm the customer agreed; opting out of e-mail is one click', async () => {
    let stored = [consent({}), consent({ channel: 'email', isSending: true })];
    const requests = serveApi((request) => {
      if (request.method === 'PUT') {
        const channel = request.url.endsWith('/sms') ? 'sms' : 'email';
        const status = (request.body as { status: 'opted_in' | 'opted_out' }).status;
        const changed = consent({ channel, status, source: 'staff', changedByName: 'Pat Admin', changedAt: '2026-11-25T15:00:00Z', isSending: status === 'opted_in' });
        stored = stored.map((known) => (known.channel === channel ? changed : known));
        return { body: { consent: changed } };
      }
      return request.url === '/api/admin/customers/c1/messaging' ? { body: { consents: stored, messages: [] } } : undefined;
    });
    renderWithQueries(<CustomerMessagesSection customerId="c1" />);
    const user = userEvent.setup();
    expect(await screen.findByText('Texts: not opted in')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Opt in to texts' }));
    const dialog = screen.getByRole('dialog', { name: 'Opt in to texts?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Opt in to texts' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Opt in to texts?' })).getByRole('button', { name: 'The customer agreed' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved. Texts: opted in by Pat Admin, 25 Nov 2026.');
    expect(await screen.findByText('Texts: opted in by Pat Admin, 25 Nov 2026')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Opt out of e-mail' }));
    expect(await screen.findByText('E-mail: opted out by Pat Admin, 25 Nov 2026')).toBeTruthy();
    expect(requests.filter((request) => request.method === 'PUT').map((request) => [request.url, request.body])).toEqual([
      ['/api/admin/customers/c1/consents/sms', { status: 'opted_in' }],
      ['/api/admin/customers/c1/consents/email', { status: 'opted_out' }],
    ]);
  });

  it('lists the history newest first with type, channel, recipient, status, time and error; Resend for sent or failed ones', async () => {
    const requests = serveApi((request) => {
      if (request.method === 'POST') return { status: 202, body: { message: message({ id: 'm9', type: 'appointment_reminder', channel: 'sms', status: 'scheduled', recipient: '+18435550100' }) } };
      return request.url === '/api/admin/customers/c1/messaging'
        ? {
            body: {
              consents: [],
              messages: [
                message({ id: 'm1' }),
                message({
                  id: 'm2',
                  type: 'appointment_reminder',
                  channel: 'sms',
                  status: 'failed',
                  recipient: '+18435550100',
                  sendAt: '2026-11-13T14:00:00Z',
                  sentAt: null,
                  attempts: 5,
                  lastError: 'SMS API answered 500',
                }),
                message({ id: 'm3', type: 'appointment_reminder', status: 'scheduled', sendAt: '2026-11-30T14:00:00Z', sentAt: null }),
              ],
            },
          }
        : undefined;
    });
    renderWithQueries(<CustomerMessagesSection customerId="c1" />);
    const user = userEvent.setup();
    const rows = within(await screen.findByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent?.slice(0, 40))).toEqual([
      expect.stringMatching(/^Appointment reminderE-mailScheduledTo da/),
      expect.stringMatching(/^Appointment reminderTextFailedTo \+1843/),
      expect.stringMatching(/^Appointment confirmedE-mailSentTo dana@/),
    ]);
    const [scheduled, failed, sent] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(scheduled.textContent).toContain('Due Nov 30, 2026, 9:00 AM');
    expect(within(scheduled).queryByRole('button', { name: /Resend/ })).toBeNull();
    expect(failed.textContent).toContain('5 attempts');
    expect(failed.textContent).toContain('Error: SMS API answered 500');
    expect(sent.textContent).toContain('Sent Nov 12, 2026, 9:00 AM');
    expect(within(sent).getByRole('link', { name: 'WO-10042' }).getAttribute('href')).toBe('/admin/workorders/w1');

    await user.click(within(failed).getByRole('button', { name: 'Resend Appointment reminder by text' }));
    expect((await screen.findByRole('status')).textContent).toBe('Appointment reminder queued again to +18435550100.');
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual(['/api/admin/messages/m2/resend']);
    // The history is asked again after the resend.
    await waitFor(() => expect(requests.filter((request) => request.url === '/api/admin/customers/c1/messaging').length).toBe(2));
  });
});

function workOrder(overrides: Partial<WorkOrder>): WorkOrder {
  return {
    id: 'w1',
    workOrderNumber: 'WO-10042',
    customerId: 'c1',
    title: 'AC not cooling',
    description: 'Warm air',
    notes: null,
    serviceType: 'repair',
    serviceDate: '2026-12-01',
    timePreference: 'morning',
    priority: 'normal',
    status: 'scheduled',
    technicianId: 't1',
    equipmentId: null,
    estimateRequestId: null,
    scheduledDate: '2026-12-01',
    scheduledStartTime: '08:00:00',
    scheduledEndTime: '10:00:00',
    estimatedDuration: 120,
    specialInstructions: null,
    actualStartTime: null,
    actualEndTime: null,
    startedAt: null,
    completedAt: null,
    serviceAddress: null,
    serviceCity: null,
    serviceState: null,
    serviceZip: null,
    possibleCustomerId: null,
    enRouteAt: null,
    customerConfirmedAt: null,
    createdAt: '2026-11-20T12:00:00Z',
    updatedAt: '2026-11-20T12:00:00Z',
    ...overrides,
  };
}

describe('Work order > Messages', () => {
  it('marks a scheduled visit with a technician en route, says On my way was sent, and offers it no more', async () => {
    let messages: Message[] = [message({ id: 'm1' })];
    const requests = serveApi((request) => {
      if (request.method === 'POST' && request.url === '/api/admin/work-orders/w1/en-route') {
        messages = [message({ id: 'm2', type: 'on_my_way', status: 'scheduled', sentAt: null, sendAt: new Date().toISOString() }), ...messages];
        return { body: { workOrder: workOrder({}) } };
      }
      return request.url === '/api/admin/work-orders/w1/messages' ? { body: { messages } } : undefined;
    });
    renderWithQueries(<WorkOrderMessagesCard workOrder={workOrder({})} technicianName="Mike Rivera" />);
    const user = userEvent.setup();
    const card = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(card).findByText('Appointment confirmed')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Mark en route' }));
    expect((await within(card).findByRole('status')).textContent).toBe('Marked en route. On my way sent for Mike Rivera.');
    expect(await within(card).findByText('On my way')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Mark en route' })).toBeNull();
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual(['/api/admin/work-orders/w1/en-route']);
  });

  it('offers no en-route mark without a technician, before scheduling, or once marked (its On my way in the history)', async () => {
    serveApi((request) =>
      request.url === '/api/admin/work-orders/w1/messages' ? { body: { messages: [message({ id: 'm5', type: 'on_my_way' })] } } : { body: { messages: [] } },
    );
    renderWithQueries(
      <>
        <WorkOrderMessagesCard workOrder={workOrder({ id: 'w2', technicianId: null })} technicianName={undefined} />
        <WorkOrderMessagesCard workOrder={workOrder({ id: 'w3', status: 'pending' })} technicianName="Mike Rivera" />
        <WorkOrderMessagesCard workOrder={workOrder({ id: 'w4', enRouteAt: '2026-12-01T12:50:00Z' })} technicianName="Mike Rivera" />
        <WorkOrderMessagesCard workOrder={workOrder({ enRouteAt: '2026-12-01T12:50:00Z' })} technicianName="Mike Rivera" />
      </>,
    );
    expect(await screen.findByText('On my way')).toBeTruthy();
    expect(screen.getAllByText('No messages for this work order yet.')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Mark en route' })).toBeNull();
  });
});

describe('Work order > Messages: what the customer and the technician did', () => {
  it('says when the customer confirmed by text and when the technician was marked en route', async () => {
    serveApi(() => ({ body: { messages: [] } }));
    renderWithQueries(<WorkOrderMessagesCard workOrder={workOrder({ customerConfirmedAt: '2026-11-30T14:05:00Z', enRouteAt: '2026-12-01T12:50:00Z' })} technicianName="Mike Rivera" />);
    expect((await screen.findByText(/^The customer confirmed this visit by text/)).textContent).toMatch(/^The customer confirmed this visit by text, .+\.$/);
    expect(screen.getByText(/^Marked en route /)).toBeTruthy();
  });
});

describe('Settings > Messages: reminders and quiet hours', () => {
  it('checks the values before saving and sends them as numbers and times', async () => {
    const requests = serveApi((request) => {
      if (request.url === '/api/admin/settings/messaging') {
        return { body: { settings: request.method === 'PUT' ? request.body : { reminderLeadHours: 24, quietStart: '21:00', quietEnd: '08:00' } } };
      }
      return request.url === '/api/admin/settings/message-templates' ? { body: { templates: [storedTemplate()], variables } } : undefined;
    });
    renderWithQueries(<MessagesPanel />);
    const user = userEvent.setup();
    const hours = await screen.findByLabelText('Reminder, hours before the visit');
    expect((hours as HTMLInputElement).value).toBe('24');
    expect(await screen.findByText('Appointment confirmed')).toBeTruthy();

    await user.clear(hours);
    await user.type(hours, '200');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByText('Enter a whole number of hours from 1 to 168.')).toBeTruthy();
    expect(hours.getAttribute('aria-invalid')).toBe('true');
    expect(requests.some((request) => request.method === 'PUT')).toBe(false);

    await user.clear(hours);
    await user.type(hours, '48');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await screen.findByRole('status')).textContent).toBe('Messaging settings saved. New reminders are planned with them.');
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({ reminderLeadHours: 48, quietStart: '21:00', quietEnd: '08:00' });
  });
});
