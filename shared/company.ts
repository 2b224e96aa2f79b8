import { z } from 'zod';

/**
 * The company profile: one place for everything company-specific (name, phones, e-mails, address,
 * hours, social links, notification recipients). Read from configuration; the demo defaults describe
 * a fictional Bluffton company. Pure (no Node, no DOM): the server config and the client build both
 * derive the same profile from the same variables.
 */
function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const optionalUrl = z.union([z.literal(''), z.url()]).default('');
const emailList = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean))
  .pipe(z.array(z.email()).min(1));

export const companyEnvSchema = z.object({
  COMPANY_NAME: z.string().trim().min(1).default('Lowcountry Comfort Heating & Air'),
  COMPANY_PHONE: z.string().trim().min(7).default('(843) 555-0142'),
  COMPANY_EMERGENCY_PHONE: z.string().trim().min(7).default('(843) 555-0199'),
  COMPANY_EMAIL: z.email().default('service@lowcountrycomfort.example'),
  COMPANY_STREET: z.string().trim().min(1).default('27 Calhoun Street'),
  COMPANY_CITY: z.string().trim().min(1).default('Bluffton'),
  COMPANY_STATE: z.string().trim().length(2).default('SC'),
  COMPANY_ZIP: z.string().trim().regex(/^\d{5}$/).default('29910'),
  /** schema.org openingHours notation: day ranges and times, separated by semicolons. */
  COMPANY_OPENING_HOURS: z
    .string()
    .default('Mo-Fr 08:00-18:00; Sa 09:00-16:00')
    .transform((value, context) => {
      const spans = parseOpeningHours(value);
      if (!spans) context.addIssue({ code: 'custom', message: 'use the form "Mo-Fr 08:00-18:00; Sa 09:00-16:00"' });
      return spans ?? [];
    }),
  COMPANY_LATITUDE: z.coerce.number().min(-90).max(90).default(32.2371),
  COMPANY_LONGITUDE: z.coerce.number().min(-180).max(180).default(-80.8604),
  COMPANY_FACEBOOK_URL: optionalUrl,
  COMPANY_INSTAGRAM_URL: optionalUrl,
  COMPANY_GOOGLE_URL: optionalUrl,
  COMPANY_SITE_URL: z.url().default('http://localhost:3000'),
  /** The company's time zone: "today", "this week", the calendar. */
  TZ_BUSINESS: z
    .string()
    .default('America/New_York')
    .refine(isKnownTimeZone, 'must be an IANA time zone such as America/New_York'),
  NOTIFICATION_RECIPIENTS: emailList.default(['office@lowcountrycomfort.example', 'dispatch@lowcountrycomfort.example']),
});

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

export function companyProfileFrom(env: z.infer<typeof companyEnvSchema>): CompanyProfile {
  return {
    name: env.COMPANY_NAME,
    phone: env.COMPANY_PHONE,
    emergencyPhone: env.COMPANY_EMERGENCY_PHONE,
    email: env.COMPANY_EMAIL,
    address: { street: env.COMPANY_STREET, city: env.COMPANY_CITY, state: env.COMPANY_STATE, zip: env.COMPANY_ZIP },
    openingHours: env.COMPANY_OPENING_HOURS,
    geo: { latitude: env.COMPANY_LATITUDE, longitude: env.COMPANY_LONGITUDE },
    social: { facebook: env.COMPANY_FACEBOOK_URL, instagram: env.COMPANY_INSTAGRAM_URL, google: env.COMPANY_GOOGLE_URL },
    siteUrl: env.COMPANY_SITE_URL.replace(/\/$/, ''),
    timeZone: env.TZ_BUSINESS,
    notificationRecipients: env.NOTIFICATION_RECIPIENTS,
  };
}

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
