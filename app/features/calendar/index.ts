/** Public entry of calendar: other features import only what this file exports (decision 019-l). */
export { ServiceCalendar } from './service-calendar.tsx';
