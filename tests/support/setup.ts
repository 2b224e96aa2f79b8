import { companyEnvSchema, companyProfileFrom, publicCompanyProfile } from '#shared/company.ts';

// Components read the company profile that the build injects; tests inject the demo defaults.
(globalThis as { __COMPANY__?: unknown }).__COMPANY__ = publicCompanyProfile(companyProfileFrom(companyEnvSchema.parse({})));
