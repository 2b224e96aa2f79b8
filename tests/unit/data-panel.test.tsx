// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataPanel } from '#client/features/settings/data-panel.tsx';
import { exportMessages } from '#shared/exports.ts';

afterEach(cleanup);

const billingLinks = [
  ['Download invoices (CSV)', '/api/admin/settings/exports/invoices.csv'],
  ['Download payments (CSV)', '/api/admin/settings/exports/payments.csv'],
  ['Download QuickBooks invoices (CSV)', '/api/admin/settings/exports/quickbooks-invoices.csv'],
] as const;

describe('Settings > Export & backup', () => {
  it('offers the CSV downloads as plain links the browser saves with the session cookie', () => {
    render(<DataPanel />);
    const links = [
      ['Download customers (CSV)', '/api/admin/settings/exports/customers.csv'],
      ['Download work orders (CSV)', '/api/admin/settings/exports/work-orders.csv'],
      ['Download leads (CSV)', '/api/admin/settings/exports/leads.csv'],
      ...billingLinks,
    ] as const;
    for (const [name, href] of links) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.hasAttribute('download')).toBe(true);
      expect(link.getAttribute('aria-disabled')).toBeNull();
    }
  });

  it('carries the billing date range in the billing links only', () => {
    render(<DataPanel />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    for (const [name, href] of billingLinks) expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(`${href}?from=2026-01-01`);
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });
    for (const [name, href] of billingLinks) expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(`${href}?from=2026-01-01&to=2026-03-31`);
    expect(screen.getByRole('link', { name: 'Download customers (CSV)' }).getAttribute('href')).toBe('/api/admin/settings/exports/customers.csv');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says at once when the range is reversed, and its links then do nothing', () => {
    render(<DataPanel />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-31' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-01' } });
    expect(screen.getByRole('alert').textContent).toContain(exportMessages.rangeReversed);
    const to = screen.getByLabelText('To');
    expect(to.getAttribute('aria-invalid')).toBe('true');
    for (const [name] of billingLinks) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('aria-disabled')).toBe('true');
      // The click is cancelled: nothing is downloaded.
      expect(fireEvent.click(link)).toBe(false);
    }
    fireEvent.change(to, { target: { value: '2026-04-30' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('link', { name: 'Download invoices (CSV)' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('explains backup and restore with the exact commands', () => {
    render(<DataPanel />);
    expect(screen.getByRole('heading', { name: 'Backup and restore' })).toBeTruthy();
    expect(screen.getByText('npm run db:backup -- --out /backups/hvac-backup.tar.gz')).toBeTruthy();
    expect(screen.getByText('DATA_DIR=./data-restored npm run db:restore /backups/hvac-backup.tar.gz')).toBeTruthy();
  });
});
