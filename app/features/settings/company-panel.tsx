/** Settings: company (issue 10). Being built; replaced by the real panel. */
export function CompanyPanel() {
  return <p className="text-slate-600">This section is being built.</p>;
}
