import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// Paths match case-insensitively (React Router's default), so /heating and /Heating are one page.
export default [
  layout('routes/public/layout.tsx', [
    index('routes/public/home.tsx'),
    // Spec: the catch-all shows the home page.
    route('*', 'routes/public/home.tsx', { id: 'public-catch-all' }),
  ]),
  route('admin/login', 'routes/admin/login.tsx'),
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/dashboard.tsx'),
    route('map', 'routes/admin/screen.tsx', { id: 'admin-map' }),
    route('geocoding-setup', 'routes/admin/screen.tsx', { id: 'admin-geocoding-setup' }),
    route('calendar', 'routes/admin/screen.tsx', { id: 'admin-calendar' }),
    route('estimates', 'routes/admin/screen.tsx', { id: 'admin-estimates' }),
    route('customers', 'routes/admin/screen.tsx', { id: 'admin-customers' }),
    route('customers/new', 'routes/admin/screen.tsx', { id: 'admin-customers-new' }),
    route('customers/:id', 'routes/admin/screen.tsx', { id: 'admin-customer' }),
    route('workorders', 'routes/admin/screen.tsx', { id: 'admin-workorders' }),
    route('workorders/new', 'routes/admin/screen.tsx', { id: 'admin-workorders-new' }),
    route('workorders/:id', 'routes/admin/screen.tsx', { id: 'admin-workorder' }),
    route('settings', 'routes/admin/screen.tsx', { id: 'admin-settings' }),
    route('*', 'routes/admin/not-found.tsx'),
  ]),
] satisfies RouteConfig;
