import type { EstimateServiceType, LeadSource, LeadStatus } from '#shared/enums.ts';
import { estimateServiceTypeLabels, estimateTimePreferenceLabels } from '#shared/estimate-labels.ts';
import { leadDescriptionPreviewLength, leadSourceLabels, leadStatusLabels, type LeadKind, type LeadListItem } from '#shared/lead.ts';
import type { BadgeTone } from '#client/components/ui/badge.tsx';
import { serviceTypeLabel as workOrderServiceTypeLabel, truncate } from '#client/features/work-orders/index.ts';

export { formatDateTime } from '#client/features/work-orders/index.ts';

const leadStatusTones: Record<LeadStatus, BadgeTone> = {
  pending: 'warning',
  contacted: 'info',
  quoted: 'primary',
  scheduled: 'success',
  completed: 'success',
  cancelled: 'danger',
};

/** Estimate statuses by the spec's names; a chat lead's own two ('new', 'converted'). */
export function leadStatusLabel(kind: LeadKind, status: string): string {
  if (kind === 'chat') return status === 'converted' ? 'Converted' : 'New';
  return leadStatusLabels[status as LeadStatus] ?? status;
}

export function leadStatusTone(kind: LeadKind, status: string): BadgeTone {
  if (kind === 'chat') return status === 'converted' ? 'success' : 'warning';
  return leadStatusTones[status as LeadStatus] ?? 'neutral';
}

/** Estimate service types by the form's words; chat leads carry work-order service types. */
export function leadServiceTypeLabel(value: string | null): string {
  if (!value) return 'Not given';
  return estimateServiceTypeLabels[value as EstimateServiceType] ?? workOrderServiceTypeLabel(value);
}

export function preferredTimeLabel(value: string | null): string {
  if (!value) return 'Not given';
  return estimateTimePreferenceLabels[value as keyof typeof estimateTimePreferenceLabels] ?? value;
}

export function leadSourceLabel(value: string): string {
  return leadSourceLabels[value as LeadSource] ?? value;
}

/** A chat lead without a customer has no name of its own. */
export function leadName(lead: Pick<LeadListItem, 'kind' | 'name'>): string {
  return lead.name ?? (lead.kind === 'chat' ? 'Chat visitor' : 'Unknown');
}

/** Spec 000 section 9: 150 characters in the lead view. */
export function descriptionPreview(text: string): string {
  return truncate(text, leadDescriptionPreviewLength);
}

/** "2.4 hours", "45 minutes", "1 hour"; an em dash when nothing has been answered yet. */
export function formatResponseTime(hours: number | null): string {
  if (hours === null) return '—';
  if (hours < 1) {
    const minutes = Math.round(hours * 60);
    return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  }
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

export const leadKey = (kind: LeadKind, id: string) => `${kind}:${id}`;

export function parseLeadKey(value: string | null): { kind: LeadKind; id: string } | undefined {
  const match = /^(estimate|chat):([0-9a-f-]{36})$/i.exec(value ?? '');
  return match ? { kind: match[1] as LeadKind, id: match[2]! } : undefined;
}
