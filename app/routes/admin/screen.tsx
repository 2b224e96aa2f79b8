import { useLocation } from 'react-router';

/** Titles of the staff screens that later releases fill in; each shows its title until then. */
const screenTitles: [RegExp, string][] = [
  [/^\/admin\/settings/i, 'Settings'],
];

export default function AdminScreen() {
  const { pathname } = useLocation();
  const title = screenTitles.find(([pattern]) => pattern.test(pathname))?.[1] ?? 'Back office';
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-bold text-slate-900">
        {title}
      </h1>
      <p className="mt-2 text-slate-600">This screen is part of an upcoming release of the back office.</p>
    </section>
  );
}
