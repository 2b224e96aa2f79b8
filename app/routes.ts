import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// Paths match case-insensitively (React Router's default), so /heating and /Heating are one page.
// Public paths are written as the spec writes them; shared/public-pages.ts lists them for
// prerendering and the sitemap.
export default [
  layout('routes/public/layout.tsx', [
    index('routes/public/home.tsx'),
    route('AC', 'routes/public/cooling.tsx'),
    route('Heating', 'routes/public/heating.tsx'),
    route('MaintenancePlan', 'routes/public/maintenance-plans.tsx'),
    route('AboutUs', 'routes/public/about.tsx'),
    route('estimate', 'routes/public/estimate.tsx'),
    route('BookingPage', 'routes/public/booking.tsx'),
    route('reviews', 'routes/public/reviews.tsx'),
    route('service-areas', 'routes/public/service-areas.tsx'),
    route('coupons', 'routes/public/coupons.tsx'),
    route('privacy', 'routes/public/privacy.tsx'),
    route('terms', 'routes/public/terms.tsx'),
    // Spec: the catch-all shows the home page.
    route('*', 'routes/public/home.tsx', { id: 'public-catch-all' }),
  ]),
  // A customer's invoice from its link (issue 20, decision 024-h): no session, not prerendered.
  route('invoice/:token', 'routes/invoice.tsx', { id: 'customer-invoice' }),
  // A customer's quote from its link (issue 20, decision 025-d): choose an option, approve or decline.
  route('quote/:token', 'routes/quote.tsx', { id: 'customer-quote' }),
  // A customer's visit from its link (issue 21, decision 027-a): move it or cancel it up to the cut-off.
  route('visit/:token', 'routes/visit.tsx', { id: 'customer-visit' }),
  // The technician app (issue 19): its own layout and offline store, outside the back office.
  route('tech', 'routes/tech/layout.tsx', [
    index('routes/tech/my-day.tsx'),
    route('visits/:id', 'routes/tech/visit.tsx', { id: 'tech-visit' }),
    route('account', 'routes/tech/account.tsx', { id: 'tech-account' }),
  ]),
  layout('routes/admin/providers.tsx', [
    route('admin/login', 'routes/admin/login.tsx'),
    // Public (no session): where a one-time set-password link lands.
    route('admin/set-password', 'routes/admin/set-password.tsx'),
    route('admin', 'routes/admin/layout.tsx', [
      index('routes/admin/dashboard.tsx'),
      route('map', 'routes/admin/map.tsx', { id: 'admin-map' }),
      route('geocoding-setup', 'routes/admin/geocoding-setup.tsx', { id: 'admin-geocoding-setup' }),
      route('calendar', 'routes/admin/calendar.tsx', { id: 'admin-calendar' }),
      route('estimates', 'routes/admin/leads.tsx', { id: 'admin-estimates' }),
      route('customers', 'routes/admin/customers.tsx', { id: 'admin-customers' }),
      route('customers/new', 'routes/admin/customer-new.tsx', { id: 'admin-customers-new' }),
      route('customers/:id', 'routes/admin/customer-profile.tsx', { id: 'admin-customer' }),
      route('workorders', 'routes/admin/work-orders.tsx', { id: 'admin-workorders' }),
      route('workorders/new', 'routes/admin/work-order-new.tsx', { id: 'admin-workorders-new' }),
      route('workorders/:id', 'routes/admin/work-order-detail.tsx', { id: 'admin-workorder' }),
      route('visits-due', 'routes/admin/visits-due.tsx', { id: 'admin-visits-due' }),
      route('quotes', 'routes/admin/quotes.tsx', { id: 'admin-quotes' }),
      route('quotes/:id', 'routes/admin/quote-detail.tsx', { id: 'admin-quote' }),
      route('invoices', 'routes/admin/invoices.tsx', { id: 'admin-invoices' }),
      route('invoices/:id', 'routes/admin/invoice-detail.tsx', { id: 'admin-invoice' }),
      route('price-book', 'routes/admin/price-book.tsx', { id: 'admin-price-book' }),
      route('settings', 'routes/admin/settings.tsx', { id: 'admin-settings' }),
      route('account', 'routes/admin/account.tsx', { id: 'admin-account' }),
      route('*', 'routes/admin/not-found.tsx'),
    ]),
  ]),
] satisfies RouteConfig;
