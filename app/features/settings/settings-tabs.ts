/**
 * The settings screen's sections (issue 10), in order. The section is kept in the address
 * (?tab=staff) so a link or a reload opens the same one. Only admins reach this screen; the server
 * refuses every /api/admin/settings call to anyone else.
 */
export const settingsTabs = [
  { id: 'staff', label: 'Staff accounts' },
  { id: 'technicians', label: 'Technicians' },
  { id: 'company', label: 'Company profile' },
  { id: 'messages', label: 'Messages' },
  { id: 'billing', label: 'Billing' },
  { id: 'booking', label: 'Online booking' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'activity', label: 'Activity log' },
  { id: 'data', label: 'Export & backup' },
] as const;
export type SettingsTabId = (typeof settingsTabs)[number]['id'];

export function settingsTabFrom(value: string | null): SettingsTabId {
  return settingsTabs.find((tab) => tab.id === value)?.id ?? 'staff';
}
