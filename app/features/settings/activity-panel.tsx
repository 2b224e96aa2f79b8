import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  auditActionLabels,
  auditEntityPath,
  auditEntityTypeLabels,
  auditEntityTypes,
  type AuditChanges,
  type AuditEntry,
} from '#shared/audit.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { company } from '#client/lib/company.ts';
import { useActivity, useAllTechnicianNames } from './activity-api.ts';

const whenFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: company.timeZone });

/** 'scheduledStartTime' → 'Scheduled start time'; a task's 'Check filter: status' stays as written. */
function fieldLabel(field: string): string {
  if (/\s/.test(field)) return field;
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueText(field: string, value: unknown, technicianNames: Map<string, string> | undefined): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (field === 'technicianId' && typeof value === 'string') return technicianNames?.get(value) ?? value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map((item) => String(item)).join(', ') || '(none)';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function Changes({ changes, technicianNames }: { changes: AuditChanges; technicianNames: Map<string, string> | undefined }) {
  const fields = Object.entries(changes);
  if (fields.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {fields.map(([field, [before, after]]) => (
        <li key={field}>
          <span className="font-medium text-slate-800">{fieldLabel(field === 'technicianId' ? 'technician' : field)}:</span>{' '}
          <span className="text-slate-600">{valueText(field, before, technicianNames)}</span>
          <span aria-hidden="true"> → </span>
          <span className="sr-only"> changed to </span>
          <span className="text-slate-900">{valueText(field, after, technicianNames)}</span>
        </li>
      ))}
    </ul>
  );
}

function RecordCell({ entry }: { entry: AuditEntry }) {
  const typeLabel = auditEntityTypeLabels[entry.entityType as keyof typeof auditEntityTypeLabels] ?? entry.entityType;
  const name = entry.entityLabel ?? entry.entityId;
  const path = entry.action === 'deleted' ? null : auditEntityPath(entry.entityType, entry.entityId);
  return (
    <div>
      <span className="block text-xs text-slate-600">{typeLabel}</span>
      {path ? (
        <Link to={path} className="font-medium text-brand-700 underline hover:text-brand-800">
          {name}
        </Link>
      ) : (
        <span className="font-medium text-slate-900">{name}</span>
      )}
      <Link
        to={`?tab=activity&entityType=${entry.entityType}&entityId=${encodeURIComponent(entry.entityId)}`}
        className="ml-2 text-xs text-slate-600 underline hover:text-slate-800"
        aria-label={`Only the activity of ${typeLabel.toLowerCase()} ${name}`}
      >
        only this
      </Link>
    </div>
  );
}

/** Settings: activity log (issue 10): who changed what and when, filterable by record. */
/** The log's columns; technician ids in changes are shown by name. */
function activityColumns(technicianNames: Map<string, string> | undefined): DataTableColumn<AuditEntry>[] {
  const header = 'px-3 py-2 font-semibold';
  return [
    {
      key: 'when',
      header: 'When',
      headerClassName: header,
      cellClassName: 'px-3 py-2 whitespace-nowrap text-slate-700',
      cell: (entry) => <time dateTime={entry.occurredAt}>{whenFormat.format(new Date(entry.occurredAt))}</time>,
    },
    { key: 'who', header: 'Who', headerClassName: header, cellClassName: 'px-3 py-2 text-slate-900', cell: (entry) => entry.actorName },
    { key: 'record', header: 'Record', headerClassName: header, cell: (entry) => <RecordCell entry={entry} /> },
    {
      key: 'action',
      header: 'Action',
      headerClassName: header,
      cellClassName: 'px-3 py-2 whitespace-nowrap text-slate-900',
      cell: (entry) => auditActionLabels[entry.action] ?? entry.action,
    },
    { key: 'changes', header: 'Changes', headerClassName: header, cell: (entry) => <Changes changes={entry.changes} technicianNames={technicianNames} /> },
  ];
}

export function ActivityPanel() {
  const [searchParams, setSearchParams] = useSearchParams();
  const entityType = (auditEntityTypes as readonly string[]).includes(searchParams.get('entityType') ?? '') ? searchParams.get('entityType')! : '';
  const entityId = entityType ? (searchParams.get('entityId') ?? '') : '';
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
  const activity = useActivity({ entityType, entityId, page });
  const technicianNames = useAllTechnicianNames().data;
  const typeSelectId = useId();

  function update(changes: Record<string, string | null>) {
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      next.set('tab', 'activity');
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });
  }

  const entries = activity.data?.entries ?? [];
  const recordName = entityId ? (entries[0]?.entityLabel ?? entityId) : '';
  const typeLabel = entityType ? auditEntityTypeLabels[entityType as keyof typeof auditEntityTypeLabels] : '';

  return (
    <div className="space-y-4">
      <p className="max-w-3xl text-slate-700">
        Every change to customers, work orders, leads, technicians and staff accounts, with who made it and what changed. The log cannot be
        edited or deleted.
      </p>
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={typeSelectId} className="block text-sm font-medium text-slate-800">
            Record type
          </label>
          <select
            id={typeSelectId}
            value={entityType}
            onChange={(event) => update({ entityType: event.target.value || null, entityId: null, page: null })}
            className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-600 focus:outline-none"
          >
            <option value="">All records</option>
            {auditEntityTypes.map((type) => (
              <option key={type} value={type}>
                {auditEntityTypeLabels[type]}
              </option>
            ))}
          </select>
        </div>
        {entityId ? (
          <p className="flex items-center gap-2 text-sm text-slate-800">
            <span>
              Showing one {typeLabel.toLowerCase()}: <strong>{recordName}</strong>
            </span>
            <Button variant="secondary" size="sm" onClick={() => update({ entityId: null, page: null })}>
              Show all {typeLabel.toLowerCase()} records
            </Button>
          </p>
        ) : null}
      </div>

      {activity.isPending ? (
        <p role="status" className="text-slate-600">
          Loading activity…
        </p>
      ) : activity.isError ? (
        <Alert>
          Could not load the activity log: {activity.error.message}{' '}
          <Button variant="secondary" size="sm" onClick={() => void activity.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : entries.length === 0 ? (
        <p role="status" className="text-slate-600">
          {page > 1 ? 'No more activity.' : 'No activity recorded yet for this selection.'}
        </p>
      ) : (
        <DataTable
          caption={`Activity log, newest first, page ${page}`}
          columns={activityColumns(technicianNames)}
          rows={entries}
          rowKey={(entry) => entry.id}
          className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm"
          tableClassName="min-w-full divide-y divide-slate-200 text-sm"
          headClassName="bg-slate-50 text-left text-slate-700"
          bodyClassName="divide-y divide-slate-100 align-top"
          rowClassName=""
          cellClassName="px-3 py-2"
        />
      )}

      <nav aria-label="Activity pages" className="flex items-center gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => update({ page: page > 2 ? String(page - 1) : null })}>
          Newer
        </Button>
        <span className="text-sm text-slate-700">Page {page}</span>
        <Button variant="secondary" size="sm" disabled={!activity.data?.hasMore} onClick={() => update({ page: String(page + 1) })}>
          Older
        </Button>
      </nav>
    </div>
  );
}
