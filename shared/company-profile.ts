/**
 * The company profile's shape and the helpers that format it (phone links, addresses, opening
 * hours). No dependencies: the public pages import this without pulling in the validation library.
 * The profile is read from configuration by shared/company.ts.
 */
export type CompanyProfile = {
  name: string;
  phone: string;
  emergencyPhone: string;
  email: string;
  address: { street: string; city: string; state: string; zip: string };
  /** Office hours; the emergency line answers around the clock. */
  openingHours: OpeningHoursSpan[];
  geo: { latitude: number; longitude: number };
  social: { facebook: string; instagram: string; google: string };
  siteUrl: string;
  timeZone: string;
  notificationRecipients: string[];
};

/** The parts of the profile the public pages may show (no internal recipients). */
export type PublicCompanyProfile = Omit<CompanyProfile, 'notificationRecipients'>;

export function publicCompanyProfile(profile: CompanyProfile): PublicCompanyProfile {
  const { notificationRecipients: _internal, ...visible } = profile;
  return visible;
}

const dayCodes = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'] as const;
type DayCode = (typeof dayCodes)[number];
const dayNames: Record<DayCode, string> = { Mo: 'Mon', Tu: 'Tue', We: 'Wed', Th: 'Thu', Fr: 'Fri', Sa: 'Sat', Su: 'Sun' };
const schemaDayNames: Record<DayCode, string> = {
  Mo: 'Monday',
  Tu: 'Tuesday',
  We: 'Wednesday',
  Th: 'Thursday',
  Fr: 'Friday',
  Sa: 'Saturday',
  Su: 'Sunday',
};

/** Days (first to last, inclusive) open from `opens` to `closes` (HH:MM, 24-hour). */
export type OpeningHoursSpan = { firstDay: DayCode; lastDay: DayCode; opens: string; closes: string };

export function parseOpeningHours(value: string): OpeningHoursSpan[] | undefined {
  const spans: OpeningHoursSpan[] = [];
  for (const part of value.split(';').map((item) => item.trim()).filter(Boolean)) {
    const match = /^(Mo|Tu|We|Th|Fr|Sa|Su)(?:-(Mo|Tu|We|Th|Fr|Sa|Su))? ([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/.exec(part);
    if (!match) return undefined;
    const [, firstDay, lastDay, openHour, openMinute, closeHour, closeMinute] = match as unknown as [string, DayCode, DayCode | undefined, string, string, string, string];
    spans.push({ firstDay, lastDay: lastDay ?? firstDay, opens: `${openHour}:${openMinute}`, closes: `${closeHour}:${closeMinute}` });
  }
  return spans.length > 0 ? spans : undefined;
}

function clockLabel(time: string): string {
  const [hourText, minute] = time.split(':') as [string, string];
  const hour = Number(hourText);
  const suffix = hour >= 12 && hour < 24 ? 'PM' : 'AM';
  const twelveHour = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelveHour}${minute === '00' ? '' : `:${minute}`}${suffix}`;
}

/** "Mon-Fri 8AM-6PM", as people write opening hours. */
export function openingHoursLabel(span: OpeningHoursSpan): string {
  const days = span.firstDay === span.lastDay ? dayNames[span.firstDay] : `${dayNames[span.firstDay]}-${dayNames[span.lastDay]}`;
  return `${days} ${clockLabel(span.opens)}-${clockLabel(span.closes)}`;
}

/** schema.org OpeningHoursSpecification for structured data. */
export function openingHoursSpecification(span: OpeningHoursSpan) {
  const first = dayCodes.indexOf(span.firstDay);
  const last = dayCodes.indexOf(span.lastDay);
  return {
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: dayCodes.slice(first, last + 1).map((day) => schemaDayNames[day]),
    opens: span.opens,
    closes: span.closes,
  };
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function oneLineAddress(address: CompanyProfile['address']): string {
  return `${address.street}, ${address.city}, ${address.state} ${address.zip}`;
}
