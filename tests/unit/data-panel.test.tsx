// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataPanel } from '#client/features/settings/data-panel.tsx';

afterEach(cleanup);

describe('Settings > Export & backup', () => {
  it('offers the three CSV downloads as plain links the browser saves with the session cookie', () => {
    render(<DataPanel />);
    const links = [
      ['Download customers (CSV)', '/api/admin/settings/exports/customers.csv'],
      ['Download work orders (CSV)', '/api/admin/settings/exports/work-orders.csv'],
      ['Download leads (CSV)', '/api/admin/settings/exports/leads.csv'],
    ] as const;
    for (const [name, href] of links) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.hasAttribute('download')).toBe(true);
    }
  });

  it('explains backup and restore with the exact commands', () => {
    render(<DataPanel />);
    expect(screen.getByRole('heading', { name: 'Backup and restore' })).toBeTruthy();
    expect(screen.getByText('npm run db:backup -- --out /backups/hvac-backup.tar.gz')).toBeTruthy();
    expect(screen.getByText('DATA_DIR=./data-restored npm run db:restore /backups/hvac-backup.tar.gz')).toBeTruthy();
  });
});
