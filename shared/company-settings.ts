import { z } from 'zod';
import { openingHoursLabel, type CompanyProfile } from './company-profile.ts';

/**
 * The company profile as the settings screen shows it (issue 10): each value, where the product
 * uses it, and the environment variable(s) that set it. Read-only: the public pages are built with
 * these values, so a change is a configuration change and a restart (which rebuilds them).
 */
export const companyUses = ['site', 'chat', 'emails', 'structured data', 'back office'] as const;
export type CompanyUse = (typeof companyUses)[number];

export const companySettingItemSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** The value as text ('' when not set). */
  value: z.string(),
  variables: z.array(z.string()),
  usedIn: z.array(z.enum(companyUses)),
  note: z.string().optional(),
});
export type CompanySettingItem = z.infer<typeof companySettingItemSchema>;

export const companySettingsResponseSchema = z.object({ items: z.array(companySettingItemSchema) });
export type CompanySettingsResponse = z.infer<typeof companySettingsResponseSchema>;

/** Every value of the profile, in the order the README lists the variables. */
export function companySettingItems(profile: Omit<CompanyProfile, 'notificationRecipients'> & { notificationRecipients?: string[] }): CompanySettingItem[] {
  const items: CompanySettingItem[] = [
    { key: 'name', label: 'Company name', value: profile.name, variables: ['COMPANY_NAME'], usedIn: ['site', 'chat', 'emails', 'structured data', 'back office'] },
    { key: 'phone', label: 'Main phone', value: profile.phone, variables: ['COMPANY_PHONE'], usedIn: ['site', 'chat', 'emails', 'structured data'] },
    {
      key: 'emergencyPhone',
      label: 'Emergency line (24/7)',
      value: profile.emergencyPhone,
      variables: ['COMPANY_EMERGENCY_PHONE'],
      usedIn: ['site', 'chat', 'emails'],
      note: 'The chat’s safety scripts (gas smell, carbon monoxide) send visitors to this number.',
    },
    {
      key: 'email',
      label: 'Public e-mail',
      value: profile.email,
      variables: ['COMPANY_EMAIL'],
      usedIn: ['site', 'chat', 'emails', 'structured data'],
      note: 'Also the default sender of outgoing e-mail unless EMAIL_FROM is set.',
    },
    {
      key: 'address',
      label: 'Street address',
      value: `${profile.address.street}, ${profile.address.city}, ${profile.address.state} ${profile.address.zip}`,
      variables: ['COMPANY_STREET', 'COMPANY_CITY', 'COMPANY_STATE', 'COMPANY_ZIP'],
      usedIn: ['site', 'chat', 'emails', 'structured data'],
      note: 'The geocoding test on the Integrations tab looks this address up.',
    },
    {
      key: 'openingHours',
      label: 'Office hours',
      value: profile.openingHours.map(openingHoursLabel).join('; '),
      variables: ['COMPANY_OPENING_HOURS'],
      usedIn: ['site', 'chat', 'structured data'],
    },
    {
      key: 'geo',
      label: 'Office position',
      value: `${profile.geo.latitude}, ${profile.geo.longitude}`,
      variables: ['COMPANY_LATITUDE', 'COMPANY_LONGITUDE'],
      usedIn: ['structured data'],
      note: 'The map tile test fetches the tile at this position.',
    },
    { key: 'facebook', label: 'Facebook page', value: profile.social.facebook, variables: ['COMPANY_FACEBOOK_URL'], usedIn: ['site', 'structured data'] },
    { key: 'instagram', label: 'Instagram page', value: profile.social.instagram, variables: ['COMPANY_INSTAGRAM_URL'], usedIn: ['site', 'structured data'] },
    { key: 'google', label: 'Google business page', value: profile.social.google, variables: ['COMPANY_GOOGLE_URL'], usedIn: ['site', 'structured data'] },
    {
      key: 'siteUrl',
      label: 'Site address',
      value: profile.siteUrl,
      variables: ['COMPANY_SITE_URL'],
      usedIn: ['site', 'emails', 'structured data'],
      note: 'Canonical links and the sitemap; links in staff e-mails; https:// turns on HSTS.',
    },
    {
      key: 'timeZone',
      label: 'Time zone',
      value: profile.timeZone,
      variables: ['TZ_BUSINESS'],
      usedIn: ['back office', 'chat'],
      note: '“Today” on the dashboard, the calendar’s days, dates offered by the chat booking.',
    },
  ];
  if (profile.notificationRecipients) {
    items.push({
      key: 'notificationRecipients',
      label: 'Staff notification recipients',
      value: profile.notificationRecipients.join(', '),
      variables: ['NOTIFICATION_RECIPIENTS'],
      usedIn: ['emails'],
      note: 'Who is e-mailed about each new estimate request. Never shown on the public site.',
    });
  }
  return items;
}
