import { ServiceCalendar } from '#client/features/calendar/index.ts';
import { company } from '#client/lib/company.ts';

// FullCalendar and its styles load with this route module only (React Router splits per route).

export function meta() {
  return [{ title: `Service Calendar | ${company.name}` }, { name: 'robots', content: 'noindex' }];
}

export default function CalendarRoute() {
  return <ServiceCalendar />;
}
