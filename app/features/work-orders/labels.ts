export { formatCalendarDate } from '#client/features/customers/index.ts';
export {
  priorityLabel,
  priorityTone,
  serviceTypeLabel,
  workOrderPriorityLabels,
  workOrderServiceTypeLabels,
  workOrderStatusLabel,
  workOrderStatusTone,
} from '#client/lib/work-order-labels.ts';

/** The extra class that tells low (gray) apart from normal (slate). */
export function priorityClass(value: string): string {
  return value === 'low' ? 'bg-gray-100 text-gray-800 ring-gray-300' : '';
}

/** Spec 000: description preview of 100 characters in the list. */
export function truncate(text: string, length = 100): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

/** "filter_replaced" → "Filter replaced". */
export function inspectionItemLabel(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "13:00" or "13:00:00" → "1:00 PM". */
export function formatClockTime(value: string | null | undefined): string {
  if (!value) return '';
  const match = /^(\d{1,2}):(\d{2})/.exec(value);
  if (!match) return value;
  const hours = Number(match[1]);
  const suffix = hours >= 12 ? 'PM' : 'AM';
  const display = hours % 12 === 0 ? 12 : hours % 12;
  return `${display}:${match[2]} ${suffix}`;
}

/** A timestamp in en-US with the time: "Jan 5, 2026, 9:30 AM". */
export function formatDateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

export const workOrderDetailPath = (id: string) => `/admin/workorders/${encodeURIComponent(id)}`;
export const workOrderListPath = '/admin/workorders';

/** Number, or the first 8 characters of the id. */
export function workOrderNumberLabel(workOrder: { id: string; workOrderNumber?: string | null }): string {
  return workOrder.workOrderNumber || workOrder.id.slice(0, 8);
}
