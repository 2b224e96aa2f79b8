import { useEffect, type ReactNode } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import type { Route } from './+types/root';
import './app.css';
import { company } from './lib/company.ts';

export const meta: Route.MetaFunction = () => [
  { title: `${company.name} | Heating & Cooling in Bluffton and Hilton Head, SC` },
  {
    name: 'description',
    content: `${company.name}: heating and air-conditioning installation, repair and maintenance across the Low Country, from Bluffton to Hilton Head Island.`,
  },
];

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e3a8a" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  // Tells the public pages' loader (scripts/defer-hydration.mjs) that the page is live: a button
  // clicked before this is clicked again. Runs once, after the children's effects.
  useEffect(() => {
    window.dispatchEvent(new Event('app:hydrated'));
  }, []);
  return <Outlet />;
}

/** While the client app starts on a path that was not prerendered (the staff screens). */
export function HydrateFallback() {
  return (
    <p role="status" className="p-8 text-center text-slate-600">
      Loading...
    </p>
  );
}

/** Spec 000 section 2: the router's fallback screen. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const detail = isRouteErrorResponse(error)
    ? error.statusText || `${error.status}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="mx-auto max-w-2xl p-8" role="alert">
      <h1 className="text-2xl font-bold text-red-700">Unexpected Application Error!</h1>
      <p className="mt-3 text-lg text-slate-800">
        {isRouteErrorResponse(error) ? <span>{error.status} </span> : null}
        {detail}
      </p>
      <p className="mt-6">
        <a className="text-brand-700 underline" href="/">
          Go to the home page
        </a>
      </p>
    </main>
  );
}
