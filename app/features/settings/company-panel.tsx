import { useQuery } from '@tanstack/react-query';
import { companySettingItems, type CompanySettingsResponse } from '#shared/company-settings.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { apiFetch } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';

function useCompanySettings() {
  return useQuery({
    queryKey: ['settings', 'company'] as const,
    queryFn: ({ signal }) => apiFetch<CompanySettingsResponse>('/api/admin/settings/company', { signal }),
  });
}

/** What the pages in this browser were built with (the public pages are prerendered with the profile). */
const builtValues = new Map(companySettingItems(company).map((item) => [item.key, item.value]));

/**
 * Settings: company profile (issue 10), read-only. Each value as the running server has it, where
 * it is used and the environment variable that sets it; a value the built pages show differently
 * is pointed out (a restart rebuilds them).
 */
export function CompanyPanel() {
  const settings = useCompanySettings();
  const items = settings.data?.items ?? [];
  const stale = items.filter((item) => builtValues.has(item.key) && builtValues.get(item.key) !== item.value);

  return (
    <div className="space-y-4">
      <p className="max-w-3xl text-slate-700">
        The company profile is what the website, the chat assistant and the e-mails say about the company. It is set by environment
        variables on the server (see the README’s configuration table) and built into the public pages, so it is changed there and takes
        effect after a restart; it cannot be edited here.
      </p>
      {settings.isPending ? (
        <p role="status" className="text-slate-600">
          Loading the company profile…
        </p>
      ) : settings.isError ? (
        <Alert>
          Could not load the company profile: {settings.error.message}{' '}
          <Button variant="secondary" size="sm" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <>
          {stale.length > 0 ? (
            <Alert tone="info">
              The server runs with different values than the pages in this browser were built with ({stale.map((item) => item.label).join(', ')}).
              Restart the server (npm start rebuilds the site) and reload this page.
            </Alert>
          ) : null}
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <caption className="sr-only">Company profile values, where they are used and the variables that set them</caption>
              <thead className="bg-slate-50 text-left text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Setting
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Value
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Used in
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Set by
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 align-top">
                {items.map((item) => (
                  <tr key={item.key}>
                    <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                      {item.label}
                      {item.note ? <span className="mt-1 block text-xs font-normal text-slate-600">{item.note}</span> : null}
                    </th>
                    <td className="px-3 py-2 break-words text-slate-900">{item.value || <span className="text-slate-500">(not set)</span>}</td>
                    <td className="px-3 py-2">
                      <ul className="flex flex-wrap gap-1" aria-label={`${item.label} is used in`}>
                        {item.usedIn.map((use) => (
                          <li key={use}>
                            <Badge tone="info">{use}</Badge>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td className="px-3 py-2">
                      {item.variables.map((variable) => (
                        <code key={variable} className="mr-1 mb-1 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">
                          {variable}
                        </code>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
