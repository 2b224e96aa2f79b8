import { Outlet } from 'react-router';
import { TechShell } from '#client/features/tech/tech-shell.tsx';
import { company } from '#client/lib/company.ts';
import '#client/lib/zod-client.ts';

export function meta() {
  return [{ title: `My day | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

/** The installable technician app: its manifest (start /tech, scope /tech) and its icon. */
export function links() {
  return [
    { rel: 'manifest', href: '/tech/manifest.webmanifest' },
    { rel: 'apple-touch-icon', href: '/tech/icon-192.png' },
  ];
}

/** /tech: the technician app's shell, outside the back office (its own guard, header and offline store). */
export default function TechLayout() {
  return (
    <TechShell>
      <Outlet />
    </TechShell>
  );
}
