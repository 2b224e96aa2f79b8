import { and, sql, type SQL } from 'drizzle-orm';
import type { ExportRange } from '#shared/exports.ts';
import type { Database } from '#server/db/client.ts';
import { keysetAfter as after, keysetCondition, localMinute as local, type KeysetCursor } from '#server/db/keyset.ts';

/**
 * The CSV exports' reads: one page at a time in keyset order. Customers, work orders and invoices
 * go in the order they were created ((created_at, id), an index each, never changed by an edit, so
 * an export running while staff work neither skips nor repeats a row); payments by the date
 * received ((received_on, id), payments_received_on_idx; never updated). Leads are read by the
 * leads module's repository (`exportPage`, passed in by app.ts): the unified leads query is its own.
 * Money is read as text (bigint cents: exact whatever the driver) and written as dollars by the service.
 */
export type CustomerExportRow = KeysetCursor & {
  name: string;
  type: string;
  phone: string;
  email: string | null;
  address: string;
  city: string;
  state: string;
  zip: string | null;
  notes: string | null;
  hasIndoorUnit: boolean;
  hasOutdoorUnit: boolean;
  unitBrand: string | null;
  unitModel: string | null;
  unitSerial: string | null;
  installDate: string | null;
  refrigerantType: string | null;
  tonnage: string | null;
  latitude: number | null;
  longitude: number | null;
  geocodingStatus: string;
  created: string;
  equipment: EquipmentSummary[];
};

export type EquipmentSummary = {
  type: string;
  location: string | null;
  brand: string | null;
  model: string | null;
  serial: string | null;
  warranty: string | null;
  installed: string | null;
};

export type WorkOrderExportRow = KeysetCursor & {
  number: string;
  title: string;
  status: string;
  priority: string;
  serviceType: string;
  serviceDate: string;
  timePreference: string;
  scheduledStart: string | null;
  scheduledEnd: string | null;
  estimatedDuration: string | null;
  technician: string | null;
  customer: string;
  customerPhone: string;
  customerEmail: string | null;
  customerAddress: string;
  /** Where the job is (shared/work-order-place.ts): the customer's address parts and the work order's own. */
  customerStreet: string;
  customerCity: string | null;
  customerState: string | null;
  customerZip: string | null;
  serviceAddress: string | null;
  serviceCity: string | null;
  serviceState: string | null;
  serviceZip: string | null;
  description: string;
  notes: string | null;
  specialInstructions: string | null;
  created: string;
  started: string | null;
  completed: string | null;
};

export type InvoiceExportRow = KeysetCursor & {
  number: string | null;
  kind: string;
  status: string;
  customer: string;
  customerId: string;
  issuedOn: string | null;
  dueOn: string | null;
  subtotalCents: string;
  discountCents: string;
  taxCents: string;
  totalCents: string;
  paidCents: string;
  balanceCents: string;
  workOrderNumber: string | null;
  creditsInvoice: string | null;
  replacesInvoice: string | null;
  voidReason: string | null;
  created: string;
};

export type PaymentExportRow = KeysetCursor & {
  receivedOn: string;
  invoiceNumber: string | null;
  customer: string;
  kind: string;
  method: string;
  reference: string;
  amountCents: string;
  creditNoteNumber: string | null;
  note: string;
  recordedBy: string;
  recorded: string;
  refundOfPaymentId: string | null;
};

/** An invoice line as the QuickBooks file needs it (amounts in cents, quantity in thousandths). */
export type QuickBooksLine = {
  name: string;
  description: string;
  quantityMilli: number;
  unitPriceCents: number;
  discountBps: number;
  discountCents: number;
  taxable: boolean;
  taxRatePpm: number;
  amountCents: number;
};

export type QuickBooksInvoiceRow = KeysetCursor & {
  number: string;
  customer: string;
  issuedOn: string;
  dueOn: string;
  notes: string;
  workOrderNumber: string | null;
  /** The day the work order was completed (company time), else its service date. */
  serviceDate: string | null;
  subtotalCents: string;
  lines: QuickBooksLine[];
};

/** The inclusive date range on a date column, or nothing. */
function inRange(column: SQL, range: ExportRange): (SQL | undefined)[] {
  return [range.from ? sql`${column} >= ${range.from}::date` : undefined, range.to ? sql`${column} <= ${range.to}::date` : undefined];
}

function whereAll(conditions: (SQL | undefined)[]): SQL {
  const condition = and(...conditions);
  return condition ? sql`where ${condition}` : sql``;
}

/** Issued invoices: not drafts, not void. */
const issuedInvoice = sql`i.kind = 'invoice' and i.status in ('sent', 'partially_paid', 'paid')`;

async function rowsOf<Row extends Record<string, unknown>>(db: Database, query: SQL): Promise<Row[]> {
  return (await db.execute<Row>(query)).rows;
}

export function createExportRepository(db: Database, timeZone: string) {
  return {
    customersPage(cursor: KeysetCursor | undefined, limit: number): Promise<CustomerExportRow[]> {
      return rowsOf(
        db,
        sql`select c.id, c.created_at::text as cursor, c.name, c.type, c.phone, c.email, c.address, c.city, c.state, c.zip, c.notes,
                   c.has_indoor_unit as "hasIndoorUnit", c.has_outdoor_unit as "hasOutdoorUnit", c.unit_brand as "unitBrand",
                   c.unit_model as "unitModel", c.unit_serial as "unitSerial", c.install_date::text as "installDate",
                   c.refrigerant_type as "refrigerantType", c.tonnage, c.latitude, c.longitude, c.geocoding_status as "geocodingStatus",
                   ${local(sql`c.created_at`, timeZone)} as created,
                   coalesce((select json_agg(json_build_object('type', e.equipment_type, 'location', e.location, 'brand', e.brand,
                                                               'model', e.model, 'serial', e.serial_number, 'warranty', e.warranty_status,
                                                               'installed', e.install_date) order by e.created_at, e.id)
                               from equipment e where e.customer_id = c.id), '[]'::json) as equipment
              from customers c
              ${after(sql`c.created_at`, sql`c.id`, cursor, '>')}
             order by c.created_at, c.id
             limit ${limit}`,
      );
    },

    workOrdersPage(cursor: KeysetCursor | undefined, limit: number): Promise<WorkOrderExportRow[]> {
      return rowsOf(
        db,
        sql`select wo.id, wo.created_at::text as cursor, wo.work_order_number as number, wo.title, wo.status, wo.priority,
                   wo.service_type as "serviceType", wo.service_date::text as "serviceDate", wo.time_preference as "timePreference",
                   to_char(wo.scheduled_start_time, 'HH24:MI') as "scheduledStart", to_char(wo.scheduled_end_time, 'HH24:MI') as "scheduledEnd",
                   wo.estimated_duration::text as "estimatedDuration", t.name as technician, c.name as customer,
                   c.phone as "customerPhone", c.email as "customerEmail",
                   c.address || ', ' || c.city || ', ' || c.state || coalesce(' ' || c.zip, '') as "customerAddress",
                   c.address as "customerStreet", c.city as "customerCity", c.state as "customerState", c.zip as "customerZip",
                   wo.service_address as "serviceAddress", wo.service_city as "serviceCity",
                   wo.service_state as "serviceState", wo.service_zip as "serviceZip",
                   wo.description, wo.notes, wo.special_instructions as "specialInstructions",
                   ${local(sql`wo.created_at`, timeZone)} as created,
                   ${local(sql`wo.started_at`, timeZone)} as started,
                   ${local(sql`wo.completed_at`, timeZone)} as completed
              from work_orders wo
              join customers c on c.id = wo.customer_id
              left join technicians t on t.id = wo.technician_id
              ${after(sql`wo.created_at`, sql`wo.id`, cursor, '>')}
             order by wo.created_at, wo.id
             limit ${limit}`,
      );
    },

    /** Invoices and credit notes; with a range, those issued in it (drafts have no issue date). */
    invoicesPage(range: ExportRange, cursor: KeysetCursor | undefined, limit: number): Promise<InvoiceExportRow[]> {
      return rowsOf(
        db,
        sql`select i.id, i.created_at::text as cursor, i.invoice_number as number, i.kind, i.status, i.billing_name as customer,
                   i.customer_id as "customerId", i.issued_on::text as "issuedOn", i.due_on::text as "dueOn",
                   i.subtotal_cents::text as "subtotalCents", i.discount_cents::text as "discountCents", i.tax_cents::text as "taxCents",
                   i.total_cents::text as "totalCents", i.paid_cents::text as "paidCents", i.balance_cents::text as "balanceCents",
                   wo.work_order_number as "workOrderNumber", credited.invoice_number as "creditsInvoice",
                   replaced.invoice_number as "replacesInvoice", i.void_reason as "voidReason",
                   ${local(sql`i.created_at`, timeZone)} as created
              from invoices i
              left join work_orders wo on wo.id = i.work_order_id
              left join invoices credited on credited.id = i.credited_invoice_id
              left join invoices replaced on replaced.id = i.replaces_invoice_id
              ${whereAll([keysetCondition(sql`i.created_at`, sql`i.id`, cursor, '>'), ...inRange(sql`i.issued_on`, range)])}
             order by i.created_at, i.id
             limit ${limit}`,
      );
    },

    /** Payments, refunds and credit notes applied, by the date received; with a range, those received in it. */
    paymentsPage(range: ExportRange, cursor: KeysetCursor | undefined, limit: number): Promise<PaymentExportRow[]> {
      return rowsOf(
        db,
        sql`select p.id, p.received_on::text as cursor, p.received_on::text as "receivedOn", i.invoice_number as "invoiceNumber",
                   i.billing_name as customer, p.kind, p.method, p.reference, p.amount_cents::text as "amountCents",
                   credit.invoice_number as "creditNoteNumber", p.note, p.recorded_by_name as "recordedBy",
                   ${local(sql`p.created_at`, timeZone)} as recorded, p.refund_of_payment_id as "refundOfPaymentId"
              from payments p
              join invoices i on i.id = p.invoice_id
              left join invoices credit on credit.id = p.credit_note_id
              ${whereAll([keysetCondition(sql`p.received_on`, sql`p.id`, cursor, '>', 'date'), ...inRange(sql`p.received_on`, range)])}
             order by p.received_on, p.id
             limit ${limit}`,
      );
    },

    /** Issued invoices (not drafts, voids or credit notes) with their lines in order; with a range, those issued in it. */
    quickBooksInvoicesPage(range: ExportRange, cursor: KeysetCursor | undefined, limit: number): Promise<QuickBooksInvoiceRow[]> {
      return rowsOf(
        db,
        sql`select i.id, i.created_at::text as cursor, i.invoice_number as number, i.billing_name as customer,
                   i.issued_on::text as "issuedOn", i.due_on::text as "dueOn", i.notes, wo.work_order_number as "workOrderNumber",
                   coalesce(to_char(wo.completed_at at time zone ${timeZone}, 'YYYY-MM-DD'), wo.service_date::text) as "serviceDate",
                   i.subtotal_cents::text as "subtotalCents",
                   coalesce((select json_agg(json_build_object('name', l.name, 'description', l.description, 'quantityMilli', l.quantity_milli,
                                                               'unitPriceCents', l.unit_price_cents, 'discountBps', l.discount_bps,
                                                               'discountCents', l.discount_cents, 'taxable', l.taxable,
                                                               'taxRatePpm', l.tax_rate_ppm, 'amountCents', l.amount_cents) order by l.position)
                               from invoice_lines l where l.invoice_id = i.id), '[]'::json) as lines
              from invoices i
              left join work_orders wo on wo.id = i.work_order_id
              ${whereAll([issuedInvoice, keysetCondition(sql`i.created_at`, sql`i.id`, cursor, '>'), ...inRange(sql`i.issued_on`, range)])}
             order by i.created_at, i.id
             limit ${limit}`,
      );
    },
  };
}

export type ExportRepository = ReturnType<typeof createExportRepository>;
