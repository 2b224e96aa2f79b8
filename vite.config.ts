import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { companyEnvSchema, companyProfileFrom, publicCompanyProfile } from './shared/company.ts';

// The company profile is configuration; the prerendered public pages carry it, so the build reads
// the same variables the server does (scripts/build-if-needed.mjs rebuilds when they change).
const company = publicCompanyProfile(companyProfileFrom(companyEnvSchema.parse(process.env)));

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  define: { __COMPANY__: JSON.stringify(company) },
  build: { target: 'es2022' },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
