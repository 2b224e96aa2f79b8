import { SettingsScreen } from '#client/features/settings/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Settings | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function SettingsRoute() {
  return <SettingsScreen />;
}
