/** The CSV downloads of Settings > Export & backup (issue 10): admin only, under /api/admin/settings. */
export const exportKinds = ['customers', 'work-orders', 'leads'] as const;
export type ExportKind = (typeof exportKinds)[number];

export const exportPath = (kind: ExportKind) => `/api/admin/settings/exports/${kind}.csv`;

/** The download's file name: what it holds and the company-time-zone date it was made. */
export const exportFileName = (kind: ExportKind, today: string) => `${kind}-${today}.csv`;

export const exportDescriptions: Record<ExportKind, { label: string; description: string }> = {
  customers: {
    label: 'Customers',
    description: 'One row per customer: contact details, the unit on file and a summary of every piece of equipment.',
  },
  'work-orders': {
    label: 'Work orders',
    description: 'One row per work order with its customer and technician.',
  },
  leads: {
    label: 'Leads',
    description: 'Estimate requests and chat leads, newest first, as the leads screen lists them.',
  },
};
