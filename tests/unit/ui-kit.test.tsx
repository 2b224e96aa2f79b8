// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { Pager } from '#client/components/ui/pager.tsx';
import { SearchInput, useSearchInput } from '#client/components/ui/search-input.tsx';
import { searchDebounceMs } from '#client/components/ui/use-url-search.ts';

afterEach(cleanup);

type Person = { id: string; name: string; visits: number };
const people: Person[] = [
  { id: '1', name: 'Carol', visits: 2 },
  { id: '2', name: 'alice', visits: 10 },
  { id: '3', name: 'Bob', visits: 1 },
];
const columns: DataTableColumn<Person>[] = [
  { key: 'name', header: 'Name', cell: (person) => person.name, sortValue: (person) => person.name, isRowHeader: true },
  { key: 'visits', header: 'Visits', cell: (person) => String(person.visits), sortValue: (person) => person.visits },
  { key: 'actions', header: 'Actions', cell: (person) => <button type="button">Edit {person.name}</button> },
];
const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getByRole('rowheader').textContent);

describe('DataTable', () => {
  it('sorts by a header button and says so with aria-sort', () => {
    render(<DataTable caption="People" columns={columns} rows={people} rowKey={(person) => person.id} />);
    expect(screen.getByRole('table', { name: 'People' })).toBeTruthy();
    expect(rowNames()).toEqual(['Carol', 'alice', 'Bob']);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Actions' }).hasAttribute('aria-sort')).toBe(false);

    fireEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(rowNames()).toEqual(['alice', 'Bob', 'Carol']);
    fireEvent.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(rowNames()).toEqual(['Carol', 'Bob', 'alice']);

    const visitsHeader = screen.getByRole('columnheader', { name: /Visits/ });
    fireEvent.click(within(visitsHeader).getByRole('button'));
    expect(visitsHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(rowNames()).toEqual(['Bob', 'Carol', 'alice']); // numbers, not text: 1, 2, 10
  });

  it('hands the sort to the caller when it sorts on the server', () => {
    const onSortChange = vi.fn();
    render(
      <DataTable caption="People" columns={columns} rows={people} rowKey={(person) => person.id} sort={{ column: 'visits', direction: 'descending' }} onSortChange={onSortChange} />,
    );
    expect(rowNames()).toEqual(['Carol', 'alice', 'Bob']); // as given
    expect(screen.getByRole('columnheader', { name: /Visits/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Visits/ })).getByRole('button'));
    expect(onSortChange).toHaveBeenCalledWith({ column: 'visits', direction: 'ascending' });
  });

  it('shows the empty state, and the loading state as a status, in place of the rows', () => {
    const { rerender } = render(<DataTable caption="People" columns={columns} rows={[]} rowKey={(person) => person.id} empty="Nobody yet" />);
    expect(screen.getByRole('cell', { name: 'Nobody yet' }).getAttribute('colspan')).toBe('3');
    rerender(<DataTable caption="People" columns={columns} rows={[]} rowKey={(person) => person.id} empty="Nobody yet" isLoading loading="Loading people..." />);
    expect(screen.getByRole('status').textContent).toBe('Loading people...');
    expect(screen.queryByText('Nobody yet')).toBeNull();
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  });

  it('puts activatable rows in the Tab order: Enter opens the row, Enter on its own button does not', () => {
    const onRowActivate = vi.fn();
    render(<DataTable caption="People" columns={columns} rows={people} rowKey={(person) => person.id} onRowActivate={onRowActivate} rowLabel={(person) => `Open ${person.name}`} />);
    const row = screen.getByRole('row', { name: 'Open Bob' });
    expect(row.tabIndex).toBe(0);
    row.focus();
    fireEvent.keyDown(row, { key: 'Enter' });
    expect(onRowActivate).toHaveBeenCalledWith(people[2]);
    fireEvent.keyDown(row, { key: ' ' });
    expect(onRowActivate).toHaveBeenCalledTimes(1);
    const edit = within(row).getByRole('button', { name: 'Edit Bob' });
    fireEvent.keyDown(edit, { key: 'Enter' });
    fireEvent.click(edit);
    expect(onRowActivate).toHaveBeenCalledTimes(1);
    fireEvent.click(within(row).getByText('1'));
    expect(onRowActivate).toHaveBeenCalledTimes(2);
  });

  it('leaves rows out of the Tab order when nothing opens them', () => {
    render(<DataTable caption="People" columns={columns} rows={people} rowKey={(person) => person.id} />);
    for (const row of screen.getAllByRole('row')) expect(row.hasAttribute('tabindex')).toBe(false);
  });
});

function SearchHarness() {
  const { draft, setDraft, search } = useSearchInput();
  const location = useLocation();
  return (
    <>
      <SearchInput label="Search people" value={draft} onChange={setDraft} placeholder="Name" />
      <p data-testid="search">{search}</p>
      <p data-testid="url">{location.search}</p>
    </>
  );
}

describe('SearchInput', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function renderAt(url: string) {
    const router = createMemoryRouter([{ path: '/list', element: <SearchHarness /> }], { initialEntries: [url] });
    render(<RouterProvider router={router} />);
    return router;
  }

  it('is labelled, starts from the URL and writes the search to it after a pause, back to page 1', async () => {
    renderAt('/list?search=bob&page=3&status=open');
    const box = screen.getByRole('searchbox', { name: 'Search people' });
    expect((box as HTMLInputElement).value).toBe('bob');
    expect(screen.getByTestId('search').textContent).toBe('bob');

    fireEvent.change(box, { target: { value: 'carol ' } });
    await act(async () => {
      vi.advanceTimersByTime(searchDebounceMs - 50);
    });
    expect(screen.getByTestId('url').textContent).toBe('?search=bob&page=3&status=open'); // not yet
    await act(async () => {
      vi.advanceTimersByTime(50);
    });
    expect(screen.getByTestId('url').textContent).toBe('?search=carol&status=open');
    expect(screen.getByTestId('search').textContent).toBe('carol');
    expect((box as HTMLInputElement).value).toBe('carol '); // what is typed stays as typed
  });

  it('waits for the typing to stop: one URL change for a burst of keys, none left when cleared', async () => {
    const router = renderAt('/list');
    const box = screen.getByRole('searchbox', { name: 'Search people' });
    for (const value of ['a', 'al', 'ali']) {
      fireEvent.change(box, { target: { value } });
      await act(async () => {
        vi.advanceTimersByTime(searchDebounceMs / 2);
      });
    }
    expect(router.state.location.search).toBe('');
    await act(async () => {
      vi.advanceTimersByTime(searchDebounceMs);
    });
    expect(router.state.location.search).toBe('?search=ali');
    fireEvent.change(box, { target: { value: '' } });
    await act(async () => {
      vi.advanceTimersByTime(searchDebounceMs);
    });
    expect(router.state.location.search).toBe('');
  });

  it('follows the URL when it changes (back, a link)', async () => {
    const router = renderAt('/list?search=bob');
    await act(async () => {
      await router.navigate('/list?search=dave');
    });
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('dave');
  });
});

describe('Pager', () => {
  it('moves between pages and disables what leads nowhere', () => {
    const onPageChange = vi.fn();
    const { rerender } = render(<Pager label="People pages" page={1} pageCount={3} onPageChange={onPageChange} />);
    const nav = screen.getByRole('navigation', { name: 'People pages' });
    expect(within(nav).getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
    rerender(<Pager label="People pages" page={3} pageCount={3} onPageChange={onPageChange} />);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
  });

  it('is not drawn for one page, and shows a capped count with "+" while pages are full', () => {
    const { rerender } = render(<Pager page={1} pageCount={1} onPageChange={() => {}} />);
    expect(screen.queryByRole('navigation')).toBeNull();
    rerender(<Pager page={2} pageCount={2} hasNextPage isCapped onPageChange={() => {}} />);
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('Page 2 of 2+');
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

function DialogHarness({ onClose }: { onClose?: () => void }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open settings
      </button>
      {isOpen ? (
        <Dialog
          title="Settings"
          description="Change them here."
          onClose={() => {
            onClose?.();
            setOpen(false);
          }}
        >
          <button type="button">Inside</button>
        </Dialog>
      ) : null}
    </>
  );
}

describe('Dialog', () => {
  it('is one labelled modal dialog; Escape closes it and the focus returns to the opener', () => {
    const onClose = vi.fn();
    render(<DialogHarness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open settings' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(dialog.getAttribute('aria-describedby')).toBe(screen.getByText('Change them here.').id);
    screen.getByRole('button', { name: 'Inside' }).focus();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Inside' }), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on a click on the backdrop, not on its content', () => {
    const onClose = vi.fn();
    render(<DialogHarness onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    fireEvent.click(screen.getByRole('button', { name: 'Inside' }));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('dialog'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
