import { useId, useRef, useState, type FormEvent } from 'react';
import { formatCents } from '#shared/money.ts';
import { importSummary, priceBookCsvColumns, priceBookImportLimits, priceBookImportResultSchema, type PriceBookImportResult } from '#shared/price-book.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { ApiError, messageOf } from '#client/lib/api.ts';
import { useImportPriceBook } from './price-book-api.ts';

/**
 * Import a CSV (admins): choose the file, check it (a dry run: "12 new, 30 updated, 0 errors", and
 * every problem by line and column), then confirm. The server writes all rows or none.
 */
export function PriceBookImportDialog({ onClose, onImported }: { onClose: () => void; onImported: (message: string) => void }) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | undefined>(undefined);
  const [result, setResult] = useState<PriceBookImportResult | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const importer = useImportPriceBook();

  async function run(dryRun: boolean) {
    if (!file) {
      setProblem('Choose a CSV file to import.');
      fileRef.current?.focus();
      return;
    }
    setProblem(undefined);
    try {
      const answer = await importer.mutateAsync({ file, dryRun });
      if (dryRun) setResult(answer);
      else onImported(`Imported: ${importSummary(answer)}.`);
    } catch (error) {
      // A refused import carries its per-line result.
      const parsed = error instanceof ApiError ? priceBookImportResultSchema.safeParse(error.details) : undefined;
      if (parsed?.success) setResult(parsed.data);
      else setResult(undefined);
      setProblem(messageOf(error));
    }
  }

  function check(event: FormEvent) {
    event.preventDefault();
    void run(true);
  }

  const canImport = result && result.errors.length === 0 && result.created + result.updated > 0 && !importer.isPending;

  return (
    <Dialog
      title="Import the price book from CSV"
      description={`Columns: ${priceBookCsvColumns.join(', ')} (code, name, kind and price are required; money in dollars, e.g. 89.00). Rows whose code exists update that item; others are added. Nothing is imported while any row has an error.`}
      onClose={onClose}
      initialFocusRef={fileRef}
      className="max-w-3xl"
    >
      <form onSubmit={check} noValidate className="space-y-4">
        <div>
          <label htmlFor={`${id}-file`} className="block text-sm font-medium text-slate-800">
            CSV file (up to {priceBookImportLimits.maxBytes / 1024 / 1024} MB)
          </label>
          <input
            ref={fileRef}
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0]);
              setResult(undefined);
              setProblem(undefined);
            }}
            className={controlClass}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" disabled={importer.isPending}>
            {importer.isPending && importer.variables?.dryRun ? 'Checking…' : 'Check file'}
          </Button>
          <Button onClick={() => void run(false)} disabled={!canImport}>
            {importer.isPending && importer.variables?.dryRun === false ? 'Importing…' : 'Import'}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
        <div aria-live="polite" className="space-y-3">
          {result ? (
            <p role="status" className="font-medium text-slate-900" data-testid="import-summary">
              {importSummary(result)}
            </p>
          ) : null}
          {problem ? <Alert>{problem}</Alert> : null}
          {result && result.errors.length > 0 ? (
            <div className="max-h-64 overflow-auto rounded border border-red-200">
              <table className="w-full text-left text-sm">
                <caption className="bg-red-50 px-3 py-2 text-left font-semibold text-red-900">Errors to fix in the file</caption>
                <thead className="bg-slate-100 text-xs uppercase">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Line
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Column
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Problem
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {result.errors.map((error, index) => (
                    <tr key={`${error.line}-${error.column}-${index}`}>
                      <th scope="row" className="px-3 py-2 font-normal">
                        Line {error.line}
                      </th>
                      <td className="px-3 py-2 font-mono">{error.column ?? '—'}</td>
                      <td className="px-3 py-2">{error.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {result && result.errors.length === 0 && result.preview.length > 0 ? (
            <div className="max-h-64 overflow-auto rounded border border-slate-200">
              <table className="w-full text-left text-sm">
                <caption className="px-3 py-2 text-left font-semibold text-slate-900">
                  What the import will do{result.preview.length < result.rows ? ` (first ${result.preview.length} rows)` : ''}
                </caption>
                <thead className="bg-slate-100 text-xs uppercase">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Line
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Code
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Name
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Price
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Action
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {result.preview.map((row) => (
                    <tr key={row.line}>
                      <td className="px-3 py-2">{row.line}</td>
                      <th scope="row" className="px-3 py-2 font-mono font-normal">
                        {row.code}
                      </th>
                      <td className="px-3 py-2">{row.name}</td>
                      <td className="px-3 py-2 text-right">{formatCents(row.priceCents)}</td>
                      <td className="px-3 py-2">{row.action === 'create' ? 'New' : row.action === 'update' ? 'Update' : 'Unchanged'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </div>
      </form>
    </Dialog>
  );
}
