import type { CompanyProfile } from '#shared/company-profile.ts';
import type { QueuedEmail } from '#server/modules/email/index.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The message carrying a one-time set-password link (an invitation or a reset). */
export function setPasswordEmail(input: {
  to: { email: string; name: string; id: string };
  purpose: 'invite' | 'reset';
  link: string;
  validHours: number;
  company: CompanyProfile;
}): QueuedEmail {
  const { to, purpose, link, validHours, company } = input;
  const subject =
    purpose === 'invite' ? `Your ${company.name} back-office account` : `Set a new password for the ${company.name} back office`;
  const opening =
    purpose === 'invite'
      ? `An administrator created a back-office account for you (${to.email}). Choose your password here:`
      : `An administrator reset the password of your back-office account (${to.email}). Choose a new one here:`;
  const closing = `The link works once and for ${validHours} hours. If it has expired, ask an administrator for a new one. If you did not expect this message, you can ignore it.`;
  return {
    recipients: [to.email],
    subject,
    text: `Hello ${to.name},\n\n${opening}\n\n${link}\n\n${closing}\n\n${company.name}\n`,
    html: `<p>Hello ${escapeHtml(to.name)},</p><p>${escapeHtml(opening)}</p><p><a href="${escapeHtml(link)}">Choose your password</a></p><p>${escapeHtml(closing)}</p><p>${escapeHtml(company.name)}</p>`,
    relatedType: 'staff_user',
    relatedId: to.id,
    // The link is a credential: blanked once delivered, never in a backup (decision 018-d-outbox-secrets).
    carriesSecret: true,
    kind: `set_password_${purpose}`,
  };
}
