import type { CompanyProfile } from '#shared/company-profile.ts';
import type { EstimateRequest } from '#shared/estimate.ts';
import { estimateServiceTypeLabels, estimateTimePreferenceLabels } from '#shared/estimate-labels.ts';
import { renderMessage, type MessageTemplate } from '#shared/messaging.ts';
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
 * NOTIFICATION_RECIPIENTS) and the visitor's confirmation (from its template; see below).
 */
export function estimateRequestEmails(
  request: Omit<EstimateRequest, 'smsConsent'> & { id: string; priority: string },
  company: CompanyProfile,
  adminUrl: string,
  /** The "estimate request received" template (messageTemplateFor): an admin's edit or the built-in one. */
  confirmationTemplate: MessageTemplate,
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

  // To the visitor's address: the company's "estimate request received" template (Settings →
  // Messages), filled with the company's details, the reference and the chosen service's label
  // only. Nothing typed into the form (name, description, address) goes to an address anyone can
  // type, so the company's mail cannot carry a stranger's words (decision 018-d-estimate-email).
  const rendered = renderMessage(confirmationTemplate, {
    'company.name': company.name,
    'company.phone': company.phone,
    'company.site': company.siteUrl,
    'customer.firstName': 'there',
    'request.reference': estimateReference(request.id),
    'request.service': service,
  });
  const confirmation: QueuedEmail = {
    recipients: [request.email],
    replyTo: company.email,
    subject: rendered.subject,
    text: rendered.emailBody,
    relatedType: 'estimate_request',
    relatedId: request.id,
    kind: estimateConfirmationKind,
  };
  return [notification, confirmation];
}
