import type { CompanyProfile } from '#shared/company-profile.ts';
import type { EstimateRequest } from '#shared/estimate.ts';
import { estimateServiceTypeLabels, estimateTimePreferenceLabels } from '#shared/estimate-labels.ts';
import { estimateResponseHours } from '#shared/business.ts';
import type { QueuedEmail } from '#server/modules/email/index.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function formatDate(isoDate: string): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export const estimateConfirmationKind = 'estimate_confirmation';
/** At most this many confirmations go to one address in 24 hours (counted in the database, across instances). */
export const confirmationsPerRecipientPerDay = 3;

/** The short reference a visitor's confirmation names (the start of the request's id). */
export function estimateReference(id: string): string {
  return `EST-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

/**
 * The two messages a new estimate request sends: the staff notification (every detail, to
 * NOTIFICATION_RECIPIENTS) and the visitor's confirmation (fixed text; see below).
 */
export function estimateRequestEmails(
  request: Omit<EstimateRequest, 'smsConsent'> & { id: string; priority: string },
  company: CompanyProfile,
  adminUrl: string,
): QueuedEmail[] {
  const service = estimateServiceTypeLabels[request.serviceType];
  const when = [
    request.preferredDate ? formatDate(request.preferredDate) : 'No preferred date',
    request.preferredTime ? estimateTimePreferenceLabels[request.preferredTime] : 'any time',
  ].join(', ');
  const details: [string, string][] = [
    ['Name', request.name],
    ['Phone', request.phone],
    ['Email', request.email],
    ['Address', request.address],
    ['Service', service],
    ['Priority', request.priority === 'urgent' ? 'URGENT' : 'Normal'],
    ['Preferred time', when],
    ['Description', request.description ?? '(none)'],
  ];
  const detailText = details.map(([label, value]) => `${label}: ${value}`).join('\n');
  const detailHtml = details
    .map(([label, value]) => `<tr><th align="left" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`)
    .join('');

  const notification: QueuedEmail = {
    recipients: company.notificationRecipients,
    replyTo: request.email,
    subject: `${request.priority === 'urgent' ? '[URGENT] ' : ''}New estimate request: ${service} for ${request.name}`,
    text: `A new estimate request came in from the website.\n\n${detailText}\n\nOpen the leads screen: ${adminUrl}`,
    html: `<p>A new estimate request came in from the website.</p><table>${detailHtml}</table><p><a href="${escapeHtml(adminUrl)}">Open the leads screen</a></p>`,
    relatedType: 'estimate_request',
    relatedId: request.id,
  };

  // To the visitor's address: fixed company text, the reference and the chosen service's label
  // only. Nothing typed into the form (name, description, address) goes to an address anyone can
  // type, so the company's mail cannot carry a stranger's words (decision 018-d-estimate-email).
  const reference = estimateReference(request.id);
  const confirmation: QueuedEmail = {
    recipients: [request.email],
    replyTo: company.email,
    subject: `We received your estimate request | ${company.name}`,
    text:
      `Hello,\n\nThank you for contacting ${company.name}. We received your request for ${service} and will ` +
      `get back to you within ${estimateResponseHours} hours to confirm the details.\n\n` +
      `Your request reference: ${reference}\n\n` +
      `Need help sooner? Call us at ${company.phone}. For emergencies our 24/7 line is ${company.emergencyPhone}.\n\n` +
      `If you did not send this request, you can ignore this message.\n\n` +
      `${company.name}\n${company.address.street}, ${company.address.city}, ${company.address.state} ${company.address.zip}`,
    html:
      `<p>Hello,</p><p>Thank you for contacting ${escapeHtml(company.name)}. We received your request for ` +
      `<strong>${escapeHtml(service)}</strong> and will get back to you within ${estimateResponseHours} hours to confirm the details.</p>` +
      `<p>Your request reference: <strong>${escapeHtml(reference)}</strong></p>` +
      `<p>Need help sooner? Call us at <a href="tel:${escapeHtml(company.phone.replace(/[^\d+]/g, ''))}">${escapeHtml(company.phone)}</a>. ` +
      `For emergencies our 24/7 line is ${escapeHtml(company.emergencyPhone)}.</p>` +
      `<p>If you did not send this request, you can ignore this message.</p>` +
      `<p>${escapeHtml(company.name)}<br>${escapeHtml(company.address.street)}, ${escapeHtml(company.address.city)}, ${escapeHtml(company.address.state)} ${escapeHtml(company.address.zip)}</p>`,
    relatedType: 'estimate_request',
    relatedId: request.id,
    kind: estimateConfirmationKind,
  };
  return [notification, confirmation];
}
