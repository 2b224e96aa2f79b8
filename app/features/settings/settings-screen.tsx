import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { sessionQuery } from '#client/features/auth/index.ts';
import { ActivityPanel } from './activity-panel.tsx';
import { BillingPanel } from './billing-panel.tsx';
import { BookingPanel } from './booking-panel.tsx';
import { CompanyPanel } from './company-panel.tsx';
import { DataPanel } from './data-panel.tsx';
import { IntegrationsPanel } from './integrations-panel.tsx';
import { MessagesPanel } from './messages-panel.tsx';
import { StaffPanel } from './staff-panel.tsx';
import { TechniciansPanel } from './technicians-panel.tsx';
import { settingsTabFrom, settingsTabs, type SettingsTabId } from './settings-tabs.ts';

const panels: Record<SettingsTabId, () => React.ReactNode> = {
  staff: StaffPanel,
  technicians: TechniciansPanel,
  company: CompanyPanel,
  messages: MessagesPanel,
  billing: BillingPanel,
  booking: BookingPanel,
  integrations: IntegrationsPanel,
  activity: ActivityPanel,
  data: DataPanel,
};

/** /admin/settings: where the company runs the product itself (issue 10). */
export function SettingsScreen() {
  const [searchParams] = useSearchParams();
  const active = settingsTabFrom(searchParams.get('tab'));
  const Panel = panels[active];
  const activeLabel = settingsTabs.find((tab) => tab.id === active)?.label;
  // The admin layout has loaded the session before this screen renders.
  const session = useQuery(sessionQuery);
  if (session.data && session.data.user.role !== 'admin') {
    return (
      <section aria-labelledby="screen-title" className="space-y-4">
        <h1 id="screen-title" className="text-2xl font-bold text-slate-900">
          Settings
        </h1>
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-4 text-amber-900">
          Only administrators can open settings. Ask an administrator if something here needs changing.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="screen-title" className="space-y-6">
      <h1 id="screen-title" className="text-2xl font-bold text-slate-900">
        Settings
      </h1>
      <nav aria-label="Settings sections" className="flex flex-wrap gap-2 border-b border-slate-200 pb-2">
        {settingsTabs.map((tab) => (
          <Link
            key={tab.id}
            to={`?tab=${tab.id}`}
            aria-current={tab.id === active ? 'page' : undefined}
            className={
              tab.id === active
                ? 'rounded-md bg-blue-600 px-3 py-2 text-sm font-medium text-white'
                : 'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600'
            }
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <section aria-label={activeLabel}>
        <Panel />
      </section>
    </section>
  );
}
