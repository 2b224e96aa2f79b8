import { ChangePasswordScreen } from '#client/features/settings/index.ts';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Change password | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function AccountRoute() {
  return <ChangePasswordScreen />;
}
