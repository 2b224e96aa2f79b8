import type { Config } from '@react-router/dev/config';
import { publicPagePaths } from './shared/public-pages.ts';

// No server rendering at request time: public pages are prerendered to complete HTML at build
// time; staff screens are a client-rendered app behind the session check.
export default {
  appDirectory: 'app',
  ssr: false,
  prerender: [...publicPagePaths],
} satisfies Config;
