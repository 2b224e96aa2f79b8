import { useId, useState, type MouseEvent } from 'react';
import { buttonClass } from '#client/components/ui/button.tsx';
import { Alert } from '#client/components/ui/alert.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { billingExportKinds, exportDescriptions, exportPath, exportRangeQuerySchema, exportUrl, recordExportKinds, type ExportKind } from '#shared/exports.ts';

const commandClass = 'block overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-sm text-slate-50';

function ExportItem({ kind, href, isDisabled = false, describedBy }: { kind: ExportKind; href: string; isDisabled?: boolean; describedBy?: string }) {
  // A range the server would refuse: the link stays in the tab order but does nothing, and says why.
  const stop = (event: MouseEvent) => {
    if (isDisabled) event.preventDefault();
  };
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="font-medium text-slate-900">{exportDescriptions[kind].label}</p>
        <p className="text-sm text-slate-600">{exportDescriptions[kind].description}</p>
      </div>
      <a
        href={href}
        download
        onClick={stop}
        aria-disabled={isDisabled || undefined}
        aria-describedby={isDisabled ? describedBy : undefined}
        className={buttonClass('secondary', 'sm', 'shrink-0')}
      >
        {exportDescriptions[kind].download}
      </a>
    </li>
  );
}

/**
 * The accountant's files (issue 20, decision 025-b): invoices, payments and QuickBooks Online's
 * invoice import, over an optional date range the links carry in their address. The range is
 * checked here with the server's own schema, so a reversed one is said at once.
 */
function BillingExports() {
  const id = useId();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const checked = exportRangeQuerySchema.safeParse({ from, to });
  const errorOf = (field: 'from' | 'to') => (checked.success ? undefined : checked.error.issues.find((issue) => issue.path[0] === field)?.message);
  const fromError = errorOf('from');
  const toError = errorOf('to');
  const error = fromError ?? toError;
  const range = checked.success ? checked.data : {};
  return (
    <section aria-labelledby="billing-export-heading" className="space-y-4">
      <div className="space-y-1">
        <h2 id="billing-export-heading" className="text-lg font-semibold text-slate-900">
          Billing exports for your accountant
        </h2>
        <p className="text-slate-600">
          Money is in dollars with two decimals. Leave the dates blank for everything; with dates, invoices and the QuickBooks file hold
          those issued in the range and payments those received in it (both days included). The QuickBooks file is laid out for
          QuickBooks Online&apos;s Import data &gt; Invoices; record the payments in QuickBooks after importing.
        </p>
      </div>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-medium text-slate-900">Date range (optional)</legend>
        <FormField id={`${id}-from`} label="From" error={fromError}>
          <input
            id={`${id}-from`}
            type="date"
            className={controlClass}
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
            {...errorAttributes(`${id}-from`, fromError)}
          />
        </FormField>
        <FormField id={`${id}-to`} label="To" error={toError}>
          <input
            id={`${id}-to`}
            type="date"
            className={controlClass}
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
            {...errorAttributes(`${id}-to`, toError)}
          />
        </FormField>
      </fieldset>
      <div aria-live="assertive">{error ? <Alert>{error}. The downloads below wait for a valid range.</Alert> : null}</div>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {billingExportKinds.map((kind) => (
          <ExportItem key={kind} kind={kind} href={exportUrl(kind, range)} isDisabled={Boolean(error)} describedBy={`${id}-${fromError ? 'from' : 'to'}-error`} />
        ))}
      </ul>
    </section>
  );
}

/**
 * Settings: Export & backup (issue 10). The CSV downloads are plain links: the browser sends the
 * session cookie and saves the streamed file itself (the server names it). Backup and restore
 * are commands on the machine that runs the product, so this panel only explains them.
 */
export function DataPanel() {
  return (
    <div className="max-w-3xl space-y-10">
      <section aria-labelledby="export-heading" className="space-y-4">
        <div className="space-y-1">
          <h2 id="export-heading" className="text-lg font-semibold text-slate-900">
            Export to a spreadsheet
          </h2>
          <p className="text-slate-600">
            CSV files (UTF-8) that open in Excel, Numbers or Google Sheets. Each holds everything in the database at the time of the
            download, however many rows. Text that a spreadsheet would run as a formula (starting with = + - or @) is saved with a
            leading apostrophe so it stays plain text.
          </p>
        </div>
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {recordExportKinds.map((kind) => (
            <ExportItem key={kind} kind={kind} href={exportPath(kind)} />
          ))}
        </ul>
      </section>

      <BillingExports />

      <section aria-labelledby="backup-heading" className="space-y-4">
        <div className="space-y-1">
          <h2 id="backup-heading" className="text-lg font-semibold text-slate-900">
            Backup and restore
          </h2>
          <p className="text-slate-600">
            A backup is one file with the whole database (customers, work orders, leads, staff accounts, settings) and every uploaded
            photo. Whoever hosts the product makes it on the server, in the product&apos;s folder, with the same settings the server uses
            (DATA_DIR or DATABASE_URL):
          </p>
        </div>
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-900">Make a backup</p>
          <code className={commandClass}>npm run db:backup -- --out /backups/hvac-backup.tar.gz</code>
          <p className="text-sm text-slate-600">
            Without <code className="font-mono">--out</code> it writes <code className="font-mono">hvac-backup-&lt;date&gt;.tar.gz</code> in
            the current folder. With the built-in database (no DATABASE_URL) stop the server first: only one process may open it. With
            PostgreSQL the backup runs while the server runs and is taken from one consistent moment. Keep copies somewhere other than
            the server.
          </p>
        </div>
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-900">Restore a backup</p>
          <code className={commandClass}>DATA_DIR=./data-restored npm run db:restore /backups/hvac-backup.tar.gz</code>
          <p className="text-sm text-slate-600">
            A restore only goes into an empty place: a new data folder, or a new, empty PostgreSQL database named by DATABASE_URL. It
            refuses one that already holds data, checks every file of the backup against its checksum first, and writes nothing if
            anything is wrong. Then start the server on the restored data as usual.
          </p>
        </div>
      </section>
    </div>
  );
}
