/** Public entry of booking: other features import only what this file exports (decision 019-l). */
export { BookingFlow } from './booking-flow.tsx';
