import type { PublicCompanyProfile } from '#shared/company-profile.ts';

declare global {
  /** Injected at build time from configuration (vite.config.ts). */
  const __COMPANY__: PublicCompanyProfile;
}
