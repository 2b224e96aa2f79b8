import type { PublicCompanyProfile } from '#shared/company.ts';

/** The company profile as configured when the site was built. */
export const company: PublicCompanyProfile = __COMPANY__;
