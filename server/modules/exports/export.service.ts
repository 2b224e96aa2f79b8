import { todayIn } from '#shared/dates.ts';
import { exportFileName, type ExportKind } from '#shared/exports.ts';
import { addressLine, workOrderPlace } from '#shared/work-order-place.ts';
import { csvChunks, keysetPages, type CsvValue } from '#server/lib/csv.ts';
import type { Database, RepositoryFactory } from '#server/db/client.ts';
import type { KeysetCursor } from '#server/db/keyset.ts';
import type { LeadRepository } from '#server/modules/leads/index.ts';
import type { EquipmentSummary, ExportRepository } from './export.repository.ts';
import { createExportRepository } from './export.repository.ts';

/** Rows per query: large enough that 100,000 rows take 100 queries, small enough to stay a few hundred KB. */
export const exportPageSize = 1000;

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

function file<Row extends KeysetCursor>(
  fileName: string,
  columns: Column<Row>[],
  readPage: (cursor: KeysetCursor | undefined, limit: number) => Promise<Row[]>,
): CsvFile {
  async function* records() {
    for await (const page of keysetPages(readPage, exportPageSize)) yield page.map((row) => columns.map(([, value]) => value(row)));
  }
  return { fileName, chunks: csvChunks(columns.map(([header]) => header), records()) };
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
  const name = (kind: ExportKind) => exportFileName(kind, todayIn(timeZone));

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
  };
}

export type ExportService = ReturnType<typeof createExportService>;
