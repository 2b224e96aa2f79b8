import { companyEnvSchema, companyProfileFrom } from '#shared/company.ts';
import { publicCompanyProfile } from '#shared/company-profile.ts';

// Components read the company profile that the build injects; tests inject the demo defaults.
(globalThis as { __COMPANY__?: unknown }).__COMPANY__ = publicCompanyProfile(companyProfileFrom(companyEnvSchema.parse({})));
