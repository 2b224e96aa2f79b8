import { z } from 'zod';
import { parseOpeningHours, type CompanyProfile } from './company-profile.ts';


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

