import { TechAccountScreen } from '#client/features/tech/account-screen.tsx';
import { company } from '#client/lib/company.ts';

export function meta() {
  return [{ title: `Account | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function TechAccountRoute() {
  return <TechAccountScreen />;
}
