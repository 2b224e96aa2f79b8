import { z } from 'zod';

/**
 * The company profile: one place for everything company-specific (name, phones, e-mails, address,
 * hours, social links, notification recipients). Read from configuration; the demo defaults describe
 * a fictional Bluffton company. Pure (no Node, no DOM): the server config and the client build both
 * derive the same profile from the same variables.
 */
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
  COMPANY_HOURS_WEEKDAYS: z.string().trim().min(1).default('Mon-Fri 8AM-6PM'),
  COMPANY_HOURS_SATURDAY: z.string().trim().min(1).default('Sat 9AM-4PM'),
  COMPANY_FACEBOOK_URL: optionalUrl,
  COMPANY_INSTAGRAM_URL: optionalUrl,
  COMPANY_GOOGLE_URL: optionalUrl,
  COMPANY_SITE_URL: z.url().default('http://localhost:3000'),
  NOTIFICATION_RECIPIENTS: emailList.default(['office@lowcountrycomfort.example', 'dispatch@lowcountrycomfort.example']),
});

export type CompanyProfile = {
  name: string;
  phone: string;
  emergencyPhone: string;
  email: string;
  address: { street: string; city: string; state: string; zip: string };
  hours: { weekdays: string; saturday: string; emergency: string };
  social: { facebook: string; instagram: string; google: string };
  siteUrl: string;
  notificationRecipients: string[];
};

export function companyProfileFrom(env: z.infer<typeof companyEnvSchema>): CompanyProfile {
  return {
    name: env.COMPANY_NAME,
    phone: env.COMPANY_PHONE,
    emergencyPhone: env.COMPANY_EMERGENCY_PHONE,
    email: env.COMPANY_EMAIL,
    address: { street: env.COMPANY_STREET, city: env.COMPANY_CITY, state: env.COMPANY_STATE, zip: env.COMPANY_ZIP },
    hours: { weekdays: env.COMPANY_HOURS_WEEKDAYS, saturday: env.COMPANY_HOURS_SATURDAY, emergency: '24/7 emergency line' },
    social: { facebook: env.COMPANY_FACEBOOK_URL, instagram: env.COMPANY_INSTAGRAM_URL, google: env.COMPANY_GOOGLE_URL },
    siteUrl: env.COMPANY_SITE_URL.replace(/\/$/, ''),
    notificationRecipients: env.NOTIFICATION_RECIPIENTS,
  };
}

/** The parts of the profile the public pages may show (no internal recipients). */
export type PublicCompanyProfile = Omit<CompanyProfile, 'notificationRecipients'>;

export function publicCompanyProfile(profile: CompanyProfile): PublicCompanyProfile {
  const { notificationRecipients: _internal, ...visible } = profile;
  return visible;
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function oneLineAddress(address: CompanyProfile['address']): string {
  return `${address.street}, ${address.city}, ${address.state} ${address.zip}`;
}
