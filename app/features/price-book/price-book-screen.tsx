import { useId, useState } from 'react';
import { countLabel } from '#shared/api.ts';
import { priceBookItemKinds, type PriceBookItemKind } from '#shared/enums.ts';
import { formatCents } from '#shared/money.ts';
import {
  marginLabel,
  priceBookActiveFilters,
  priceBookKindLabels,
  priceBookSorts,
  type PriceBookItem,
  type PriceBookListParams,
  type PriceBookSort,
} from '#shared/price-book.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button, buttonClass } from '#client/components/ui/button.tsx';
import { DataTable, type DataTableColumn, type TableSort } from '#client/components/ui/data-table.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { Pager, readPage } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { withPage } from '#client/components/ui/use-url-search.ts';
import { useIsAdmin } from '#client/features/auth/index.ts';
import { messageOf } from '#client/lib/api.ts';
import { priceBookQueryString, usePriceBookList, useSetPriceBookItemActive } from './price-book-api.ts';
import { PriceBookImportDialog } from './price-book-import-dialog.tsx';
import { PriceBookItemDialog } from './price-book-item-dialog.tsx';

const pageSize = 50;
const activeLabels = { active: 'Active', inactive: 'Inactive', all: 'All' } as const;

type DialogState = { kind: 'edit'; itemId?: string } | { kind: 'import' } | undefined;

/**
 * /admin/price-book (issue 20): the office's price book. Everyone on staff searches and exports it;
 * admins add, edit, (de)activate and import. Search, filters, sort and page live in the address.
 */
export function PriceBookScreen() {
  const { draft, setDraft, search, searchParams, setSearchParams } = useSearchInput();
  const isAdmin = useIsAdmin();
  const filterId = useId();
  const kind = priceBookItemKinds.find((value) => value === searchParams.get('kind'));
  const category = searchParams.get('category') ?? '';
  const active = priceBookActiveFilters.find((value) => value === searchParams.get('active')) ?? 'active';
  const sort: PriceBookSort = priceBookSorts.find((value) => value === searchParams.get('sort')) ?? 'name';
  const dir = searchParams.get('dir') === 'desc' ? 'desc' : 'asc';
  const page = readPage(searchParams.get('page'));
  const filters: PriceBookListParams = { q: search || undefined, kind, category: category || undefined, active, sort, dir };
  const list = usePriceBookList({ ...filters, page, pageSize });
  const setActive = useSetPriceBookItemActive();
  const openItem = searchParams.get('item');
  const [dialog, setDialog] = useState<DialogState>(openItem ? { kind: 'edit', itemId: openItem } : undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [actionError, setActionError] = useState<string | undefined>(undefined);

  function setParam(name: string, value: string | undefined) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        next.delete('page');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  function closeDialog() {
    setDialog(undefined);
    if (openItem) setParam('item', undefined);
  }

  async function toggleActive(item: PriceBookItem) {
    setActionError(undefined);
    try {
      await setActive.mutateAsync({ id: item.id, active: !item.active });
      setMessage(`${item.code} was ${item.active ? 'deactivated' : 'activated'}.`);
    } catch (error) {
      setActionError(messageOf(error));
    }
  }

  const columns: DataTableColumn<PriceBookItem>[] = [
    { key: 'code', header: 'Code', isSortable: true, isRowHeader: true, cell: (item) => <span className="font-mono whitespace-nowrap">{item.code}</span> },
    {
      key: 'name',
      header: 'Name',
      isSortable: true,
      cell: (item) => (
        <div>
          <div className="font-medium text-slate-900">{item.name}</div>
          {item.description ? <div className="line-clamp-1 text-xs text-slate-600">{item.description}</div> : null}
        </div>
      ),
    },
    { key: 'kind', header: 'Kind', cell: (item) => priceBookKindLabels[item.kind] },
    { key: 'category', header: 'Category', isSortable: true, cell: (item) => item.category || '—' },
    {
      key: 'price',
      header: 'Price',
      isSortable: true,
      headerClassName: 'px-4 py-3 text-right',
      cellClassName: 'px-4 py-3 text-right whitespace-nowrap',
      cell: (item) => (
        <span>
          {formatCents(item.priceCents)}
          <span className="text-xs text-slate-600"> / {item.unit}</span>
        </span>
      ),
    },
    {
      key: 'margin',
      header: 'Margin',
      headerClassName: 'px-4 py-3 text-right',
      cellClassName: 'px-4 py-3 text-right whitespace-nowrap',
      cell: (item) => (
        <span title={`Cost ${formatCents(item.costCents)}`}>
          {marginLabel(item.priceCents, item.costCents)}
          <span className="block text-xs text-slate-600">cost {formatCents(item.costCents)}</span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (item) => (
        <div className="flex flex-wrap gap-1">
          {item.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
          {item.taxable ? <Badge tone="info">Taxable</Badge> : null}
        </div>
      ),
    },
    ...(isAdmin
      ? [
          {
            key: 'actions',
            header: <span className="sr-only">Actions</span>,
            cell: (item: PriceBookItem) => (
              <div className="flex flex-wrap gap-2">
                <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: 'edit', itemId: item.id })} aria-label={`Edit ${item.code}`}>
                  Edit
                </Button>
                <Button size="sm" variant="ghost" onClick={() => void toggleActive(item)} aria-label={`${item.active ? 'Deactivate' : 'Activate'} ${item.code}`}>
                  {item.active ? 'Deactivate' : 'Activate'}
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];

  const tableSort: TableSort = { column: sort, direction: dir === 'desc' ? 'descending' : 'ascending' };
  const total = list.data?.total ?? 0;
  const exportHref = `/api/admin/price-book/export.csv?${priceBookQueryString(filters)}`;

  return (
    <section aria-labelledby="screen-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="screen-title" className="text-2xl font-bold text-slate-900">
          Price Book
        </h1>
        <div className="flex flex-wrap gap-2">
          {isAdmin ? (
            <>
              <Button onClick={() => setDialog({ kind: 'edit' })}>Add item</Button>
              <Button variant="secondary" onClick={() => setDialog({ kind: 'import' })}>
                Import CSV
              </Button>
            </>
          ) : null}
          <a href={exportHref} download className={buttonClass('secondary')}>
            Export CSV
          </a>
        </div>
      </div>
      {!isAdmin ? <p className="text-sm text-slate-700">Only administrators change prices. Ask an administrator if a price needs changing.</p> : null}

      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SearchInput label="Search code, name, category or description" value={draft} onChange={setDraft} placeholder="e.g. capacitor, R-410A" withIcon />
        <div>
          <label htmlFor={`${filterId}-kind`} className="block text-sm font-medium text-slate-800">
            Kind
          </label>
          <select id={`${filterId}-kind`} value={kind ?? ''} onChange={(event) => setParam('kind', event.target.value || undefined)} className={controlClass}>
            <option value="">All kinds</option>
            {priceBookItemKinds.map((value: PriceBookItemKind) => (
              <option key={value} value={value}>
                {priceBookKindLabels[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${filterId}-category`} className="block text-sm font-medium text-slate-800">
            Category
          </label>
          <select id={`${filterId}-category`} value={category} onChange={(event) => setParam('category', event.target.value || undefined)} className={controlClass}>
            <option value="">All categories</option>
            {(list.data?.categories ?? (category ? [category] : [])).map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${filterId}-active`} className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <select id={`${filterId}-active`} value={active} onChange={(event) => setParam('active', event.target.value === 'active' ? undefined : event.target.value)} className={controlClass}>
            {priceBookActiveFilters.map((value) => (
              <option key={value} value={value}>
                {activeLabels[value]}
              </option>
            ))}
          </select>
        </div>
      </div>

      <p role="status" className="text-sm text-slate-700">
        {list.data ? countLabel(total, false, { one: 'item', many: 'items' }) : ''}
        {message ? ` · ${message}` : ''}
      </p>
      {actionError ? <Alert>{actionError}</Alert> : null}
      {list.isError ? <Alert>{messageOf(list.error)}</Alert> : null}

      {/* relative: the sr-only header inside is absolutely placed and would otherwise widen the page on a phone. */}
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <DataTable
          caption="Price book items"
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(item) => item.id}
          isLoading={list.isPending}
          isBusy={list.isFetching}
          empty={search || kind || category ? 'No items match this search.' : 'The price book is empty.'}
          sort={tableSort}
          onSortChange={(next) =>
            setSearchParams(
              (current) => {
                const params = new URLSearchParams(current);
                params.set('sort', next.column);
                params.set('dir', next.direction === 'descending' ? 'desc' : 'asc');
                params.delete('page');
                return params;
              },
              { replace: true },
            )
          }
        />
      </div>
      <Pager
        label="Price book pages"
        page={page}
        pageCount={Math.ceil(total / pageSize)}
        onPageChange={(next) => setSearchParams(withPage(searchParams, next), { preventScrollReset: true })}
      />

      {dialog?.kind === 'edit' ? (
        <PriceBookItemDialog
          itemId={dialog.itemId}
          categories={list.data?.categories ?? []}
          onClose={closeDialog}
          onSaved={(text) => {
            closeDialog();
            setMessage(text);
          }}
        />
      ) : null}
      {dialog?.kind === 'import' ? (
        <PriceBookImportDialog
          onClose={closeDialog}
          onImported={(text) => {
            closeDialog();
            setMessage(text);
          }}
        />
      ) : null}
    </section>
  );
}
