/** Settings: integrations (issue 10). Being built; replaced by the real panel. */
export function IntegrationsPanel() {
  return <p className="text-slate-600">This section is being built.</p>;
}
