import type { PublicCompanyProfile } from '#shared/company-profile.ts';

/** The company profile as configured when the site was built. */
export const company: PublicCompanyProfile = __COMPANY__;
