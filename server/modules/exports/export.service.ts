import { todayIn } from '#shared/dates.ts';
import { exportFileName, type ExportKind, type ExportRange } from '#shared/exports.ts';
import { addressLine, workOrderPlace } from '#shared/work-order-place.ts';
import { csvChunks, keysetPages, type CsvValue } from '#server/lib/csv.ts';
import type { Database, RepositoryFactory } from '#server/db/client.ts';
import type { KeysetCursor } from '#server/db/keyset.ts';
import type { LeadRepository } from '#server/modules/leads/index.ts';
import type { EquipmentSummary, ExportRepository, InvoiceExportRow, PaymentExportRow } from './export.repository.ts';
import { createExportRepository } from './export.repository.ts';
import { csvDollars as dollars, quickBooksInvoiceColumns, quickBooksRecords } from './quickbooks.ts';

/** Rows per query: large enough that 100,000 rows take 100 queries, small enough to stay a few hundred KB. */
export const exportPageSize = 1000;
/** Invoices per query of the QuickBooks file: each brings its lines (up to 200), so fewer at a time. */
export const quickBooksPageSize = 250;

export type CsvFile = { fileName: string; chunks: AsyncGenerator<string> };

type Column<Row> = [header: string, value: (row: Row) => CsvValue];

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** "Heat pump (attic): Carrier 25HCB6, serial 1234, installed 2021-05-03, warranty active" */
export function describeEquipment(item: EquipmentSummary): string {
  const name = [item.brand, item.model].filter(Boolean).join(' ');
  const details = [
    name,
    item.serial ? `serial ${item.serial}` : '',
    item.installed ? `installed ${item.installed}` : '',
    item.warranty ? `warranty ${item.warranty}` : '',
  ].filter(Boolean);
  return `${item.type}${item.location ? ` (${item.location})` : ''}${details.length > 0 ? `: ${details.join(', ')}` : ''}`;
}

type ReadPage<Row> = (cursor: KeysetCursor | undefined, limit: number) => Promise<Row[]>;

/** A file of several records per row (the QuickBooks file: one per invoice line), read a page of rows at a time. */
function fileOfRecords<Row extends KeysetCursor>(
  fileName: string,
  header: readonly string[],
  recordsOf: (row: Row) => CsvValue[][],
  readPage: ReadPage<Row>,
  pageSize = exportPageSize,
): CsvFile {
  async function* records() {
    for await (const page of keysetPages(readPage, pageSize)) yield page.flatMap(recordsOf);
  }
  return { fileName, chunks: csvChunks(header, records()) };
}

/** A file of one record per row. */
function file<Row extends KeysetCursor>(fileName: string, columns: Column<Row>[], readPage: ReadPage<Row>): CsvFile {
  return fileOfRecords(
    fileName,
    columns.map(([header]) => header),
    (row) => [columns.map(([, value]) => value(row))],
    readPage,
  );
}

export type ExportServiceDependencies = {
  db: Database;
  timeZone: string;
  /** The leads module's repository (app.ts passes it in, decision 019-l): the unified leads query is the leads module's. */
  leadRepository: RepositoryFactory<Pick<LeadRepository, 'exportPage'>>;
};

export function createExportService({ db, timeZone, leadRepository }: ExportServiceDependencies) {
  const repository: ExportRepository = createExportRepository(db, timeZone);
  const leads = leadRepository(db);
  const leadsPage = (cursor: KeysetCursor | undefined, limit: number) => leads.exportPage(timeZone, cursor, limit);
  const zone = `(${timeZone})`;
  const name = (kind: ExportKind, range: ExportRange = {}) => exportFileName(kind, todayIn(timeZone), range);

  return {
    /** One row per customer; their equipment counted and summarised in two columns (decision 017-e). */
    customers(): CsvFile {
      return file(
        name('customers'),
        [
          ['Customer ID', (row) => row.id],
          ['Name', (row) => row.name],
          ['Type', (row) => row.type],
          ['Phone', (row) => row.phone],
          ['Email', (row) => row.email],
          ['Address', (row) => row.address],
          ['City', (row) => row.city],
          ['State', (row) => row.state],
          ['ZIP', (row) => row.zip],
          ['Notes', (row) => row.notes],
          ['Indoor unit', (row) => yesNo(row.hasIndoorUnit)],
          ['Outdoor unit', (row) => yesNo(row.hasOutdoorUnit)],
          ['Unit brand', (row) => row.unitBrand],
          ['Unit model', (row) => row.unitModel],
          ['Unit serial', (row) => row.unitSerial],
          ['Unit install date', (row) => row.installDate],
          ['Refrigerant', (row) => row.refrigerantType],
          ['Tonnage', (row) => row.tonnage],
          ['Equipment count', (row) => row.equipment.length],
          ['Equipment', (row) => row.equipment.map(describeEquipment).join(' | ')],
          ['Latitude', (row) => row.latitude],
          ['Longitude', (row) => row.longitude],
          ['Geocoding status', (row) => row.geocodingStatus],
          [`Created ${zone}`, (row) => row.created],
        ],
        repository.customersPage,
      );
    },

    workOrders(): CsvFile {
      return file(
        name('work-orders'),
        [
          ['Work order', (row) => row.number],
          ['Title', (row) => row.title],
          ['Status', (row) => row.status],
          ['Priority', (row) => row.priority],
          ['Service type', (row) => row.serviceType],
          ['Service date', (row) => row.serviceDate],
          ['Time preference', (row) => row.timePreference],
          ['Scheduled start', (row) => row.scheduledStart],
          ['Scheduled end', (row) => row.scheduledEnd],
          ['Estimated hours', (row) => row.estimatedDuration],
          ['Technician', (row) => row.technician],
          ['Customer', (row) => row.customer],
          ['Customer phone', (row) => row.customerPhone],
          ['Customer email', (row) => row.customerEmail],
          ['Customer address', (row) => row.customerAddress],
          ['Description', (row) => row.description],
          ['Notes', (row) => row.notes],
          ['Special instructions', (row) => row.specialInstructions],
          [`Created ${zone}`, (row) => row.created],
          [`Started ${zone}`, (row) => row.started],
          [`Completed ${zone}`, (row) => row.completed],
          ['Work order ID', (row) => row.id],
          // Appended (decision 018-a, follow-up): the work order's own service address, and where the job is.
          ['Service address', (row) => row.serviceAddress],
          ['Service city', (row) => row.serviceCity],
          ['Service state', (row) => row.serviceState],
          ['Service ZIP', (row) => row.serviceZip],
          ['Job address', (row) => addressLine(workOrderPlace(row, { address: row.customerStreet, city: row.customerCity, state: row.customerState, zip: row.customerZip }))],
        ],
        repository.workOrdersPage,
      );
    },

    leads(): CsvFile {
      return file(
        name('leads'),
        [
          [`Received ${zone}`, (row) => row.received],
          ['Kind', (row) => (row.kind === 'estimate' ? 'estimate request' : 'chat lead')],
          ['Name', (row) => row.name],
          ['Phone', (row) => row.phone],
          ['Email', (row) => row.email],
          ['Address', (row) => row.address],
          ['Service type', (row) => row.serviceType],
          ['Description', (row) => row.description],
          ['Preferred date', (row) => row.preferredDate],
          ['Preferred time', (row) => row.preferredTime],
          ['Status', (row) => row.status],
          ['Priority', (row) => row.priority],
          ['Source', (row) => row.source],
          ['Stage', (row) => row.workflowStage],
          ['Lead score', (row) => row.leadScore],
          ['Urgency', (row) => row.urgency],
          ['Customer', (row) => row.customer],
          ['Work order', (row) => row.workOrderNumber],
          ['Work order status', (row) => row.workOrderStatus],
          [`Responded ${zone}`, (row) => row.responded],
          ['Lead ID', (row) => row.id],
        ],
        leadsPage,
      );
    },

    /**
     * One row per invoice and credit note in creation order (decision 025-b); with a range, those
     * issued in it. Money in dollars with two decimals; the subtotal is after line discounts (the
     * discounts column says how much they took off), a credit note's Paid is the credit applied.
     */
    invoices(range: ExportRange = {}): CsvFile {
      return file<InvoiceExportRow>(
        name('invoices', range),
        [
          ['Number', (row) => row.number],
          ['Kind', (row) => (row.kind === 'credit_note' ? 'credit note' : 'invoice')],
          ['Status', (row) => row.status],
          ['Customer', (row) => row.customer],
          ['Issued on', (row) => row.issuedOn],
          ['Due on', (row) => row.dueOn],
          ['Subtotal', (row) => dollars(row.subtotalCents)],
          ['Discounts (in subtotal)', (row) => dollars(row.discountCents)],
          ['Tax', (row) => dollars(row.taxCents)],
          ['Total', (row) => dollars(row.totalCents)],
          ['Paid', (row) => dollars(row.paidCents)],
          ['Balance', (row) => dollars(row.balanceCents)],
          ['Work order', (row) => row.workOrderNumber],
          ['Credits invoice', (row) => row.creditsInvoice],
          ['Replaces invoice', (row) => row.replacesInvoice],
          ['Void reason', (row) => row.voidReason],
          [`Created ${zone}`, (row) => row.created],
          ['Customer ID', (row) => row.customerId],
          ['Invoice ID', (row) => row.id],
        ],
        (cursor, limit) => repository.invoicesPage(range, cursor, limit),
      );
    },

    /**
     * One row per payment, refund and credit note applied, by the date received; with a range,
     * those received in it. Amount as recorded (always positive); Net amount is negative for a
     * refund, so the column sums to the money kept.
     */
    payments(range: ExportRange = {}): CsvFile {
      return file<PaymentExportRow>(
        name('payments', range),
        [
          ['Received on', (row) => row.receivedOn],
          ['Invoice', (row) => row.invoiceNumber],
          ['Customer', (row) => row.customer],
          ['Kind', (row) => row.kind],
          ['Method', (row) => row.method],
          ['Reference', (row) => row.reference],
          ['Amount', (row) => dollars(row.amountCents)],
          ['Net amount', (row) => dollars(row.kind === 'refund' ? -Number(row.amountCents) : row.amountCents)],
          ['Credit note', (row) => row.creditNoteNumber],
          ['Note', (row) => row.note],
          ['Recorded by', (row) => row.recordedBy],
          [`Recorded ${zone}`, (row) => row.recorded],
          ['Payment ID', (row) => row.id],
          ['Refund of payment ID', (row) => row.refundOfPaymentId],
        ],
        (cursor, limit) => repository.paymentsPage(range, cursor, limit),
      );
    },

    /** Issued invoices in QuickBooks Online's import layout, one record per line (./quickbooks.ts, docs/quickbooks-export.md). */
    quickBooksInvoices(range: ExportRange = {}): CsvFile {
      return fileOfRecords(
        name('quickbooks-invoices', range),
        quickBooksInvoiceColumns,
        quickBooksRecords,
        (cursor, limit) => repository.quickBooksInvoicesPage(range, cursor, limit),
        quickBooksPageSize,
      );
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
