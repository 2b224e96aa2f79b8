import type { CustomerListItem } from '#shared/customer.ts';
import type { CustomerType } from '#shared/enums.ts';
import type { BadgeTone } from '#client/components/ui/badge.tsx';

export const customerTypeLabels: Record<CustomerType, string> = {
  residential: 'Residential',
  commercial: 'Commercial',
};

export const customerTypeTones: Record<CustomerType, BadgeTone> = {
  residential: 'primary',
  commercial: 'accent',
};

export { workOrderStatusLabel, workOrderStatusTone } from '#client/lib/work-order-labels.ts';

export function refrigerantLabel(value: string): string {
  return value === 'other' ? 'Other' : value;
}

export function tonnageLabel(value: string): string {
  if (value === 'other') return 'Other';
  return `${value} ${value === '1' ? 'ton' : 'tons'}`;
}

/** "Jan 5, 2026" (spec 000 section 9: en-US dates) from a calendar date, with no time-zone shift. */
export function formatCalendarDate(value: string | null | undefined): string {
  if (!value) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

/** "Bluffton, SC 29910" */
export function cityLine(customer: Pick<CustomerListItem, 'city' | 'state' | 'zip'>): string {
  const stateZip = [customer.state, customer.zip].filter(Boolean).join(' ');
  return [customer.city, stateZip].filter(Boolean).join(', ');
}

export function fullAddress(customer: Pick<CustomerListItem, 'address' | 'city' | 'state' | 'zip'>): string {
  return [customer.address, cityLine(customer)].filter(Boolean).join(', ');
}

/** A Google Maps search for the address, or for an address as typed (opens in a new tab). */
export function mapsSearchUrl(customer: Pick<CustomerListItem, 'address' | 'city' | 'state' | 'zip'> | string): string {
  const address = typeof customer === 'string' ? customer : fullAddress(customer);
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

/** tel: link target: digits and a leading +, extensions dropped. */
export function telHref(phone: string): string {
  const main = phone.split(/\s*(?:x|ext\.?|extension|#)\s*\d+\s*$/i)[0] ?? phone;
  return `tel:${main.replace(/[^\d+]/g, '')}`;
}

export const newWorkOrderPath = (customerId: string) => `/admin/workorders/new?customer=${encodeURIComponent(customerId)}`;
/** The service map in pin mode: staff click where the customer is (an address geocoding could not place, or placed roughly). */
export const placePinPath = (customerId: string) => `/admin/map?view=customers&pin=${encodeURIComponent(customerId)}`;
export const customerProfilePath = (customerId: string) => `/admin/customers/${encodeURIComponent(customerId)}`;
