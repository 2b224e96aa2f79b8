import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { companyEnvSchema, companyProfileFrom } from './shared/company.ts';
import { publicCompanyProfile } from './shared/company-profile.ts';

// The company profile is configuration; the prerendered public pages carry it, so the build reads
// the same variables the server does (scripts/build-if-needed.mjs rebuilds when they change).
const company = publicCompanyProfile(companyProfileFrom(companyEnvSchema.parse(process.env)));

/** What the public layout itself needs on every page (header, footer, chat bubble, page metadata, company facts). */
const publicSiteModules = [
  '/app/features/site/site-header.tsx',
  '/app/features/site/site-footer.tsx',
  '/app/components/ui/use-dismiss.ts',
  '/app/features/chat/chat-bubble.tsx',
  '/app/features/chat/chat-store.ts',
  '/app/features/chat/chat-layout.ts',
  '/app/lib/company.ts',
  '/app/lib/seo.ts',
  '/shared/company-profile.ts',
  '/shared/business.ts',
  '/shared/service-areas.ts',
];

function isPublicSiteModule(id: string): boolean {
  const normalised = id.replace(/\\/g, '/');
  return publicSiteModules.some((part) => normalised.includes(part));
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  define: { __COMPANY__: JSON.stringify(company) },
  build: {
    target: 'es2022',
    sourcemap: process.env.BUILD_SOURCEMAP === '1',
    // React Router preloads route chunks itself; our own lazy chunks (chat window, validation)
    // load on interaction, so Vite's preload helper would be dead weight on every page.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // Fewer chunks for the public pages (on a phone each request costs a round trip), without
        // making any page load another's code: the framework is one chunk, what the public layout
        // needs on every page another; the rest splits by use, so each page loads only its own.
        codeSplitting: {
          groups: [
            { name: 'framework', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 20 },
            { name: 'site', test: isPublicSiteModule, priority: 10 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
