import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { keysetAfter as after, localMinute as local, type KeysetCursor } from '#server/db/keyset.ts';

/**
 * The CSV exports' reads: one page at a time in keyset order. Customers and work orders go in the
 * order they were created ((created_at, id), an index each, never changed by an edit, so an export
 * running while staff work neither skips nor repeats a row). Leads are read by the leads module's
 * repository (`exportPage`, passed in by app.ts): the unified leads query is its own.
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
  };
}

export type ExportRepository = ReturnType<typeof createExportRepository>;
