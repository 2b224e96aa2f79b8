import { buttonClass } from '#client/components/ui/button.tsx';
import { exportDescriptions, exportKinds, exportPath } from '#shared/exports.ts';

const commandClass = 'block overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-sm text-slate-50';

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
          {exportKinds.map((kind) => (
            <li key={kind} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-medium text-slate-900">{exportDescriptions[kind].label}</p>
                <p className="text-sm text-slate-600">{exportDescriptions[kind].description}</p>
              </div>
              <a href={exportPath(kind)} download className={buttonClass('secondary', 'sm', 'shrink-0')}>
                Download {exportDescriptions[kind].label.toLowerCase()} (CSV)
              </a>
            </li>
          ))}
        </ul>
      </section>

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
