import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  bigint,
  bigserial,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  aiLeadStatuses,
  consentSources,
  consentStatuses,
  customerTypes,
  documentCounterKinds,
  invoiceKinds,
  invoiceStatuses,
  messageChannels,
  paymentKinds,
  paymentMethods,
  priceBookItemKinds,
  quoteStatuses,
  messageStatuses,
  messageTypes,
  estimateServiceTypes,
  estimateTimePreferences,
  geocodingStatuses,
  leadPriorities,
  leadSources,
  leadStatuses,
  leadWorkflowStages,
  staffRoles,
  type StaffRole,
  workOrderPriorities,
  workOrderServiceTypes,
  workOrderStatuses,
  workOrderTimePreferences,
} from '#shared/enums.ts';
import { agreementBillings, agreementStoredStatuses } from '#shared/agreement.ts';
import { agreementSignupPaymentStatuses, agreementSignupStatuses } from '#shared/agreement-signup.ts';
import { maintenancePlanIds, maintenanceSeasons } from '#shared/maintenance-plans.ts';

// One schema for every entity of both spec documents (section 3), plus staff users, sessions and
// login attempts. Column names are the spec's snake_case names.

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

function oneOf(column: SQL | ReturnType<typeof sql>, values: readonly string[]): SQL {
  return sql`${column} in (${sql.join(
    values.map((value) => sql.raw(`'${value.replace(/'/g, "''")}'`)),
    sql`, `,
  )})`;
}

// Staff and sessions -----------------------------------------------------------------------------

export const staffUsers = pgTable(
  'staff_users',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** Null while an invited user has not chosen a password (sign-in then fails like a wrong password). */
    passwordHash: text('password_hash'),
    role: text('role').$type<StaffRole>().notNull().default('admin'),
    active: boolean('active').notNull().default(true),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /**
     * A technician account's technician record (issue 19, decision 022-a): one account per
     * technician. Only the technician role has one; a technician removed leaves the account unlinked.
     */
    technicianId: uuid('technician_id').references((): AnyPgColumn => technicians.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('staff_users_email_key').on(table.email),
    check('staff_users_email_lowercase', sql`${table.email} = lower(${table.email})`),
    check('staff_users_role_check', oneOf(sql`${table.role}`, staffRoles)),
    uniqueIndex('staff_users_technician_id_key').on(table.technicianId).where(sql`${table.technicianId} is not null`),
    check('staff_users_technician_link_check', sql`${table.role} = 'technician' or ${table.technicianId} is null`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    /** SHA-256 of the cookie token: a stolen database copy does not yield live sessions. */
    tokenHash: text('token_hash').notNull(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_key').on(table.tokenHash),
    index('sessions_staff_user_id_idx').on(table.staffUserId),
    index('sessions_expires_at_idx').on(table.expiresAt),
  ],
);

/**
 * One-time set-password links (issue 10: invitations and resets). Only the SHA-256 of the token is
 * kept; a link works once (used_at) and until expires_at.
 */
export const staffPasswordLinks = pgTable(
  'staff_password_links',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    staffUserId: uuid('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'invite' | 'reset'>().notNull(),
    createdBy: uuid('created_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('staff_password_links_token_hash_key').on(table.tokenHash),
    index('staff_password_links_staff_user_id_idx').on(table.staffUserId),
    check('staff_password_links_purpose_check', sql`${table.purpose} in ('invite', 'reset')`),
  ],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: id(),
    email: text('email').notNull(),
    ipAddress: text('ip_address').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('login_attempts_email_idx').on(table.email, table.createdAt),
    index('login_attempts_ip_idx').on(table.ipAddress, table.createdAt),
  ],
);

/**
 * Login throttle state (issue 15, decision 018-c): one row per (account, address) pair, per address
 * and per account, each locked while an attempt is counted, so parallel attempts and several
 * instances see one count. `email` is '' on an address's row, `ip_address` '' on an account's.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    scope: text('scope').$type<'pair' | 'address' | 'account'>().notNull(),
    email: text('email').notNull(),
    ipAddress: text('ip_address').notNull(),
    /** Failures counted (an attempt counts as one from its start until it succeeds). */
    failures: integer('failures').notNull().default(0),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
    /** No attempt is checked before this instant. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Pair rows: the last successful sign-in of that account from that address. */
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'login_throttles_pkey', columns: [table.scope, table.email, table.ipAddress] }),
    index('login_throttles_updated_at_idx').on(table.updatedAt),
    check('login_throttles_scope_check', sql`${table.scope} in ('pair', 'address', 'account')`),
    check('login_throttles_failures_check', sql`${table.failures} >= 0`),
  ],
);

// Technicians ------------------------------------------------------------------------------------

export const technicians = pgTable(
  'technicians',
  {
    id: id(),
    name: text('name').notNull(),
    /** Calendar colour, #rrggbb. */
    color: text('color').notNull().default('#0d9488'),
    active: boolean('active').notNull().default(true),
    /**
     * Working hours by weekday ("0" = Sunday): local "HH:MM" ranges, in order, not overlapping
     * (shared/booking.ts validates them; decision 026-c). Monday to Friday 8:00-17:00 until set.
     */
    workingHours: jsonb('working_hours')
      .$type<Record<string, { start: string; end: string }[]>>()
      .notNull()
      .default(sql`'{"1":[{"start":"08:00","end":"17:00"}],"2":[{"start":"08:00","end":"17:00"}],"3":[{"start":"08:00","end":"17:00"}],"4":[{"start":"08:00","end":"17:00"}],"5":[{"start":"08:00","end":"17:00"}]}'::jsonb`),
    /** The service types online booking may give this technician (all until set). */
    serviceTypes: text('service_types').array().notNull().default(sql`'{repair,maintenance,installation,inspection,ductwork}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('technicians_color_check', sql`${table.color} ~ '^#[0-9a-fA-F]{6}$'`),
    // Two active technicians never share a name (any case): the pickers and the calendar tell them apart by it.
    uniqueIndex('technicians_active_name_key').on(sql`lower(${table.name})`).where(sql`${table.active}`),
  ],
);

/**
 * A technician's time off (issue 21, decision 026-c): whole days from starts_on to ends_on, or part
 * of one day (both times, starts_on = ends_on). Online booking offers no visit that overlaps it.
 */
export const technicianTimeOff = pgTable(
  'technician_time_off',
  {
    id: id(),
    technicianId: uuid('technician_id')
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    startsOn: date('starts_on').notNull(),
    endsOn: date('ends_on').notNull(),
    startTime: time('start_time'),
    endTime: time('end_time'),
    reason: text('reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [
    check('technician_time_off_dates_check', sql`${table.endsOn} >= ${table.startsOn}`),
    check(
      'technician_time_off_part_day_check',
      sql`(${table.startTime} is null and ${table.endTime} is null) or (${table.startTime} is not null and ${table.endTime} > ${table.startTime} and ${table.startsOn} = ${table.endsOn})`,
    ),
    // A technician's time off that overlaps a range of dates: (technician, ends_on) from the range's first day.
    index('technician_time_off_technician_ends_idx').on(table.technicianId, table.endsOn),
  ],
);

/**
 * One row: Settings -> Online booking (issue 21, decision 026-c). The arrival windows and the
 * per-service-type rules are JSON validated by shared/booking.ts; no row means the defaults.
 */
export const bookingSettings = pgTable(
  'booking_settings',
  {
    id: integer('id').primaryKey().default(1),
    onlineBookingEnabled: boolean('online_booking_enabled').notNull(),
    arrivalWindows: jsonb('arrival_windows').$type<{ start: string; end: string }[]>().notNull(),
    travelBufferMinutes: integer('travel_buffer_minutes').notNull(),
    serviceAreaZips: text('service_area_zips').array().notNull(),
    cancelCutoffHours: integer('cancel_cutoff_hours').notNull(),
    serviceTypes: jsonb('service_types').$type<Record<string, { durationMinutes: number; bookableOnline: boolean; leadTimeHours: number; horizonDays: number }>>().notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('booking_settings_single_row_check', sql`${table.id} = 1`),
    check('booking_settings_buffer_check', sql`${table.travelBufferMinutes} between 0 and 240`),
    check('booking_settings_cutoff_check', sql`${table.cancelCutoffHours} between 0 and 168`),
  ],
);

// Customers, equipment, photos --------------------------------------------------------------------

export const customers = pgTable(
  'customers',
  {
    id: id(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    address: text('address').notNull(),
    city: text('city').notNull().default('Bluffton'),
    state: text('state').notNull().default('SC'),
    zip: text('zip'),
    type: text('type').notNull().default('residential'),
    notes: text('notes'),
    hasIndoorUnit: boolean('has_indoor_unit').notNull().default(false),
    hasOutdoorUnit: boolean('has_outdoor_unit').notNull().default(false),
    unitBrand: text('unit_brand'),
    unitModel: text('unit_model'),
    unitSerial: text('unit_serial'),
    installDate: date('install_date'),
    refrigerantType: text('refrigerant_type'),
    tonnage: text('tonnage'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    geocodingStatus: text('geocoding_status').notNull().default('pending'),
    geocodedAt: timestamp('geocoded_at', { withTimezone: true }),
    formattedAddress: text('formatted_address'),
    geocodingError: text('geocoding_error'),
    /** ROOFTOP, RANGE_INTERPOLATED, GEOMETRIC_CENTER or APPROXIMATE (spec 001 section 5). */
    geocodingAccuracy: text('geocoding_accuracy'),
    /** The phone's last ten digits, however it was typed: inbound texts find their customer by it (decision 021-a). */
    phoneLast10: text('phone_last10').generatedAlwaysAs(sql`right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('customers_phone_last10_idx').on(table.phoneLast10),
    check('customers_type_check', oneOf(sql`${table.type}`, customerTypes)),
    check('customers_geocoding_status_check', oneOf(sql`${table.geocodingStatus}`, geocodingStatuses)),
    index('customers_name_idx').on(sql`lower(${table.name})`, table.id),
    // Substring searches stay fast at 50,000 customers: name and phone for the pickers...
    index('customers_name_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`).with({ fastupdate: false }),
    index('customers_phone_trgm_idx').using('gin', sql`${table.phone} gin_trgm_ops`).with({ fastupdate: false }),
    // The directory's search reads customer_search (decision 023-a).
    index('customers_geocoding_pending_idx')
      .on(table.createdAt)
      .where(sql`${table.latitude} is null`),
    index('customers_property_idx').on(table.address, table.city, table.state),
    // The chat finds a returning customer by phone (last 10 digits, however it was typed) or e-mail,
    // oldest first: each index hands over its oldest match without reading the others (decision 020-c).
    index('customers_phone_digits_created_idx').on(sql`right(regexp_replace(${table.phone}, '[^0-9]', '', 'g'), 10)`, table.createdAt, table.id),
    index('customers_email_lower_created_idx').on(sql`lower(${table.email})`, table.createdAt, table.id),
    // The CSV export's keyset order (creation order: never changed by an edit).
    index('customers_created_at_id_idx').on(table.createdAt, table.id),
  ],
);

export const customerPhotos = pgTable(
  'customer_photos',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** Storage key: customers/{customerId}/{timestamp}_{safe-filename}. */
    objectKey: text('object_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    sizeBytes: integer('size_bytes'),
    /** The visit it was taken on, when it came from the technician app (issue 19). */
    workOrderId: uuid('work_order_id').references((): AnyPgColumn => workOrders.id, { onDelete: 'set null' }),
    /** The app's upload key and the file's place in that upload: a replay stores nothing new. */
    idempotencyKey: uuid('idempotency_key'),
    idempotencyIndex: integer('idempotency_index'),
    createdAt: createdAt(),
  },
  (table) => [
    index('customer_photos_customer_id_idx').on(table.customerId, table.createdAt),
    uniqueIndex('customer_photos_object_key_key').on(table.objectKey),
    uniqueIndex('customer_photos_idempotency_key').on(table.idempotencyKey, table.idempotencyIndex).where(sql`${table.idempotencyKey} is not null`),
    index('customer_photos_work_order_id_idx').on(table.workOrderId).where(sql`${table.workOrderId} is not null`),
  ],
);

export const equipment = pgTable(
  'equipment',
  {
    id: id(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    equipmentType: text('equipment_type').notNull(),
    location: text('location'),
    brand: text('brand'),
    model: text('model'),
    serialNumber: text('serial_number'),
    /** Refrigerant (shared/enums.ts refrigerantTypes) and nominal tons (tonnages), as the field records them (issue 19). */
    refrigerant: text('refrigerant'),
    tonnage: text('tonnage'),
    warrantyStatus: text('warranty_status'),
    installDate: date('install_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('equipment_customer_id_idx').on(table.customerId)],
);

// Leads (estimate requests) ----------------------------------------------------------------------

export const estimateRequests = pgTable(
  'estimate_requests',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull(),
    serviceType: text('service_type').notNull(),
    description: text('description'),
    preferredDate: date('preferred_date'),
    preferredTime: text('preferred_time'),
    status: text('status').notNull().default('pending'),
    priority: text('priority').notNull().default('normal'),
    source: text('source').notNull().default('website'),
    workflowStage: text('workflow_stage'),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    workOrderId: uuid('work_order_id'),
    /** When staff first moved the lead away from pending (the leads screen's response time). */
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    /** A double-submitted form carries the same key and creates one row. */
    idempotencyKey: text('idempotency_key'),
    /** When the visitor ticked the form's "text me" box (issue 18): carried to the customer's consent on conversion. */
    smsConsentAt: timestamp('sms_consent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('estimate_requests_service_type_check', oneOf(sql`${table.serviceType}`, estimateServiceTypes)),
    check(
      'estimate_requests_preferred_time_check',
      sql`${table.preferredTime} is null or ${oneOf(sql`${table.preferredTime}`, estimateTimePreferences)}`,
    ),
    check('estimate_requests_status_check', oneOf(sql`${table.status}`, leadStatuses)),
    check('estimate_requests_priority_check', oneOf(sql`${table.priority}`, leadPriorities)),
    check('estimate_requests_source_check', oneOf(sql`${table.source}`, leadSources)),
    check(
      'estimate_requests_workflow_stage_check',
      sql`${table.workflowStage} is null or ${oneOf(sql`${table.workflowStage}`, leadWorkflowStages)}`,
    ),
    index('estimate_requests_created_at_idx').on(table.createdAt),
    index('estimate_requests_status_idx').on(table.status, table.priority),
    uniqueIndex('estimate_requests_idempotency_key_key').on(table.idempotencyKey),
  ],
);

// Work orders ------------------------------------------------------------------------------------

/**
 * A work order's time preference as its place in the day: morning, afternoon, anytime (the form's
 * order; alphabetical would put the morning jobs last). Today's schedule is sorted by it, and an
 * index holds the same expression so the first of a day come straight from it.
 */
export function timePreferenceRank(column: SQL | ReturnType<typeof sql> | AnyPgColumn): SQL {
  return sql`(case ${column} ${sql.raw(workOrderTimePreferences.map((value, rank) => `when '${value}' then ${rank}`).join(' '))} end)`;
}

export const workOrderNumberSequence = pgSequence('work_order_number_seq', { startWith: 10001 });

export const workOrders = pgTable(
  'work_orders',
  {
    id: id(),
    workOrderNumber: text('work_order_number')
      .notNull()
      .default(sql`'WO-' || nextval('work_order_number_seq')`),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    notes: text('notes'),
    serviceType: text('service_type').notNull().default('repair'),
    serviceDate: date('service_date').notNull(),
    timePreference: text('time_preference').notNull().default('morning'),
    priority: text('priority').notNull().default('normal'),
    status: text('status').notNull().default('pending'),
    technicianId: uuid('technician_id').references(() => technicians.id, { onDelete: 'set null' }),
    equipmentId: uuid('equipment_id').references(() => equipment.id, { onDelete: 'set null' }),
    estimateRequestId: uuid('estimate_request_id').references(() => estimateRequests.id, { onDelete: 'set null' }),
    scheduledDate: timestamp('scheduled_date', { withTimezone: true }),
    scheduledStartTime: time('scheduled_start_time'),
    scheduledEndTime: time('scheduled_end_time'),
    /** The arrival window the customer was promised when booked online (issue 21); the technician's start lies within it. */
    arrivalWindowStart: time('arrival_window_start'),
    arrivalWindowEnd: time('arrival_window_end'),
    estimatedDuration: numeric('estimated_duration', { precision: 5, scale: 2, mode: 'number' }),
    specialInstructions: text('special_instructions'),
    actualStartTime: timestamp('actual_start_time', { withTimezone: true }),
    actualEndTime: timestamp('actual_end_time', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    idempotencyKey: text('idempotency_key'),
    // Where the visit is when it is not the customer's address on file (a chat booking keeps the
    // address the visitor typed here; decision 018-a).
    serviceAddress: text('service_address'),
    serviceCity: text('service_city'),
    serviceState: text('service_state'),
    serviceZip: text('service_zip'),
    // A chat booking whose phone or e-mail matched a stored customer: that customer, until staff
    // choose "Same customer" or "New customer" (then null; decision 018-a).
    possibleCustomerId: uuid('possible_customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** When the technician (or the dispatcher for them) last marked the job en route: one "on my way" per mark (issue 18). */
    enRouteAt: timestamp('en_route_at', { withTimezone: true }),
    /** When the customer confirmed the appointment (a reply of C to the reminder; issue 18). */
    customerConfirmedAt: timestamp('customer_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('work_orders_work_order_number_key').on(table.workOrderNumber),
    uniqueIndex('work_orders_idempotency_key_key').on(table.idempotencyKey),
    check('work_orders_service_type_check', oneOf(sql`${table.serviceType}`, workOrderServiceTypes)),
    check('work_orders_time_preference_check', oneOf(sql`${table.timePreference}`, workOrderTimePreferences)),
    check('work_orders_priority_check', oneOf(sql`${table.priority}`, workOrderPriorities)),
    check('work_orders_status_check', oneOf(sql`${table.status}`, workOrderStatuses)),
    check(
      'work_orders_scheduled_times_check',
      sql`${table.scheduledStartTime} is null or ${table.scheduledEndTime} is null or ${table.scheduledEndTime} > ${table.scheduledStartTime}`,
    ),
    check(
      'work_orders_arrival_window_check',
      sql`(${table.arrivalWindowStart} is null) = (${table.arrivalWindowEnd} is null) and (${table.arrivalWindowEnd} is null or ${table.arrivalWindowEnd} > ${table.arrivalWindowStart})`,
    ),
    index('work_orders_service_date_idx').on(table.serviceDate, table.scheduledStartTime),
    // The list's order (newest service date, then newest created), whole and per status: a page is
    // the first 25 entries of one of these, however many work orders there are.
    index('work_orders_list_order_idx').on(table.serviceDate.desc().nullsFirst(), table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('work_orders_status_list_order_idx').on(table.status, table.serviceDate.desc().nullsFirst(), table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('work_orders_customer_id_idx').on(table.customerId, table.createdAt),
    index('work_orders_technician_id_idx').on(table.technicianId, table.serviceDate),
    index('work_orders_completed_at_idx').on(table.completedAt),
    // The CSV export's keyset order (creation order: never changed by an edit).
    index('work_orders_created_at_id_idx').on(table.createdAt, table.id),
    // The dashboard's today list: a day's work orders in schedule order, so its first 5 are read, not sorted.
    index('work_orders_day_schedule_idx').on(table.serviceDate, timePreferenceRank(table.timePreference), table.scheduledStartTime, table.createdAt, table.id),
    // The search reads work_order_search (decision 023-a), not these columns' own indexes.
  ],
);

/**
 * The work-order search's one text per work order (decision 023-a): title, description, number
 * and the customer's name and phone, lower-cased and joined by U+001F, with the list's order keys
 * and status beside it. Kept by triggers on work_orders and customers (migration
 * 0028_search_tables): one trigram index and one narrow table instead of five indexes ORed over
 * two tables, and a walk in list order that never reads a work order it does not show.
 */
export const workOrderSearch = pgTable(
  'work_order_search',
  {
    workOrderId: uuid('work_order_id')
      .primaryKey()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    serviceDate: date('service_date').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    searchText: text('search_text').notNull(),
  },
  (table) => [
    index('work_order_search_text_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`).with({ fastupdate: false }),
    // work_orders_list_order_idx and its per-status twin, on the narrow table.
    index('work_order_search_order_idx').on(table.serviceDate.desc().nullsFirst(), table.createdAt.desc().nullsFirst(), table.workOrderId.desc().nullsFirst()),
    index('work_order_search_status_order_idx').on(
      table.status,
      table.serviceDate.desc().nullsFirst(),
      table.createdAt.desc().nullsFirst(),
      table.workOrderId.desc().nullsFirst(),
    ),
  ],
);

/**
 * The customer directory's search text per customer (decision 023-a): lower(name || ' ' || phone
 * || ' ' || coalesce(email, '') || ' ' || address), and lower(name) for the directory's order.
 * Kept by triggers on customers (migration 0028_search_tables).
 */
export const customerSearch = pgTable(
  'customer_search',
  {
    customerId: uuid('customer_id')
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    sortName: text('sort_name').notNull(),
    searchText: text('search_text').notNull(),
  },
  (table) => [
    index('customer_search_text_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`).with({ fastupdate: false }),
    index('customer_search_order_idx').on(table.sortName, table.customerId),
  ],
);

/**
 * How many work orders are in each status, kept by triggers on work_orders (migration
 * 0008_work_order_count_triggers): the list's totals without counting 100,000 rows per request.
 */
export const workOrderStatusCounts = pgTable(
  'work_order_status_counts',
  {
    status: text('status').primaryKey(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
);

/**
 * Each customer's work orders counted, in all and in the active statuses (pending, scheduled,
 * in progress), kept by triggers on work_orders (migration 0023_customer_work_order_counts): the
 * service map's per-customer counts and busy properties without reading every work order
 * (decision 020-h). A customer without work orders has no row, or a row of zeros.
 */
export const customerWorkOrderCounts = pgTable('customer_work_order_counts', {
  customerId: uuid('customer_id')
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  total: integer('total').notNull(),
  active: integer('active').notNull(),
});

export const inspectionReports = pgTable(
  'inspection_reports',
  {
    id: id(),
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    /** Minimum circuit ampacity (A). */
    mca: numeric('mca', { precision: 6, scale: 1, mode: 'number' }),
    /** Maximum overcurrent protection (A). */
    mocp: numeric('mocp', { precision: 6, scale: 1, mode: 'number' }),
    /** Supply/return temperature split, degrees F. */
    tempSplit: numeric('temp_split', { precision: 5, scale: 1, mode: 'number' }),
    /** Total external static pressure, inches of water column. */
    staticPressure: numeric('static_pressure', { precision: 5, scale: 2, mode: 'number' }),
    inspectionItems: text('inspection_items').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (table) => [index('inspection_reports_work_order_id_idx').on(table.workOrderId, table.createdAt)],
);

export const workOrderTasks = pgTable(
  'work_order_tasks',
  {
    id: id(),
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    taskName: text('task_name').notNull(),
    status: text('status').notNull().default('pending'),
    timeSpentMinutes: integer('time_spent_minutes'),
    createdAt: createdAt(),
  },
  (table) => [index('work_order_tasks_work_order_id_idx').on(table.workOrderId, table.createdAt)],
);

// The technician app (issue 19, decision 022-a) ------------------------------------------------

/** Every action the technician app applied, by its idempotency key: a replay changes nothing twice. */
export const techActions = pgTable(
  'tech_actions',
  {
    idempotencyKey: uuid('idempotency_key').primaryKey(),
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    staffUserId: uuid('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    /** When it happened on the device. */
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('tech_actions_work_order_id_idx').on(table.workOrderId, table.appliedAt)],
);

/** Notes a technician writes on a visit; the office sees them on the work order. */
export const workOrderNotes = pgTable(
  'work_order_notes',
  {
    id: id(),
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    authorStaffUserId: uuid('author_staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** The author's name as it was (the account may be renamed or go). */
    authorName: text('author_name').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('work_order_notes_work_order_id_idx').on(table.workOrderId, table.createdAt)],
);

/** What the technician recorded at 'Work complete': one per work order. */
export const visitCompletions = pgTable('visit_completions', {
  workOrderId: uuid('work_order_id')
    .primaryKey()
    .references(() => workOrders.id, { onDelete: 'cascade' }),
  summary: text('summary').notNull(),
  materials: jsonb('materials').$type<{ description: string; quantity: number }[]>().notNull().default([]),
  signerName: text('signer_name'),
  /** The customer's signature (PNG) in the uploads storage, or null when nobody signed. */
  signatureKey: text('signature_key'),
  timeOnSiteMinutes: integer('time_on_site_minutes'),
  followUpNote: text('follow_up_note'),
  completedByStaffUserId: uuid('completed_by_staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
  completedByName: text('completed_by_name').notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }).notNull(),
});

// Chat assistant ---------------------------------------------------------------------------------

export const aiConversations = pgTable(
  'ai_conversations',
  {
    id: id(),
    conversationId: text('conversation_id').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    userMessage: text('user_message').notNull(),
    aiResponse: text('ai_response').notNull(),
    intent: text('intent').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('ai_conversations_created_at_idx').on(table.createdAt),
    index('ai_conversations_conversation_id_idx').on(table.conversationId, table.createdAt),
    // The customer a chat session booked as (looked up on every message of the session).
    index('ai_conversations_session_customer_idx').on(table.conversationId).where(sql`${table.customerId} is not null`),
  ],
);

export const aiLeads = pgTable(
  'ai_leads',
  {
    id: id(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    conversationId: text('conversation_id').notNull(),
    leadScore: integer('lead_score').notNull(),
    urgency: text('urgency').notNull(),
    serviceType: text('service_type'),
    status: text('status').notNull().default('new'),
    source: text('source').notNull().default('ai_chat'),
    notes: text('notes'),
    workOrderId: uuid('work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    /** The stored customer the booking's phone or e-mail matched, until staff decide (decision 018-a). */
    possibleCustomerId: uuid('possible_customer_id').references(() => customers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('ai_leads_lead_score_check', sql`${table.leadScore} between 1 and 10`),
    check('ai_leads_status_check', oneOf(sql`${table.status}`, aiLeadStatuses)),
    index('ai_leads_created_at_idx').on(table.createdAt),
  ],
);

export const adminNotifications = pgTable(
  'admin_notifications',
  {
    id: id(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('admin_notifications_created_at_idx').on(table.createdAt)],
);

// Outgoing e-mail ---------------------------------------------------------------------------------

/**
 * The e-mail outbox: a message is stored in the same transaction as the request that causes it and
 * delivered afterwards, with retries, so a failing mail server never loses or fails the request.
 */
export const outboundEmails = pgTable(
  'outbound_emails',
  {
    id: id(),
    recipients: text('recipients').array().notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the message is about, e.g. estimate_request + its id. */
    relatedType: text('related_type'),
    relatedId: uuid('related_id'),
    /**
     * The body holds a secret (a one-time set-password link): blanked once the message is sent or
     * has failed for good, and blanked in every backup (decision 018-d-outbox-secrets).
     */
    carriesSecret: boolean('carries_secret').notNull().default(false),
    /** What kind of message it is, where a rule counts them (e.g. 'estimate_confirmation', capped per recipient). */
    kind: text('kind'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    check('outbound_emails_status_check', sql`${table.status} in ('pending', 'sent', 'failed')`),
    index('outbound_emails_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('outbound_emails_related_idx').on(table.relatedType, table.relatedId),
    index('outbound_emails_kind_created_at_idx').on(table.kind, table.createdAt).where(sql`${table.kind} is not null`),
    index('outbound_emails_finished_idx').on(table.createdAt).where(sql`${table.status} <> 'pending'`),
  ],
);

// Customer messaging (issue 18, decision 021-a) -------------------------------------------------------

/**
 * Every customer message, one row per message per channel: the schedule (status 'scheduled' with
 * its send_at) and the history (the rendered subject and body, the provider's id, the error). The
 * planner inserts them from the work order's state; the dispatcher claims due rows with SKIP
 * LOCKED and a lease. dedupe_key makes each message for one appointment version exist once.
 */
export const messages = pgTable(
  'messages',
  {
    id: id(),
    type: text('type').notNull(),
    channel: text('channel').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    workOrderId: uuid('work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    /** An e-mail address or an E.164 number, as planned (the dispatcher uses the current one). */
    recipient: text('recipient').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** The appointment it is about: the company-local date, start and end ('2026-12-01 08:00-10:00'). */
    appointmentVersion: text('appointment_version'),
    status: text('status').notNull().default('scheduled'),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** A claimed ('sending') row is another sender's until then; after it, it may be claimed again. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    subject: text('subject'),
    body: text('body'),
    providerId: text('provider_id'),
    emailId: uuid('email_id').references(() => outboundEmails.id, { onDelete: 'set null' }),
    /** A quote or an invoice the message sends a link to (issue 20): its link is made when the message is sent. */
    documentType: text('document_type'),
    documentId: uuid('document_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('messages_dedupe_key_key').on(table.dedupeKey),
    check('messages_type_check', oneOf(sql`${table.type}`, messageTypes)),
    check('messages_channel_check', oneOf(sql`${table.channel}`, messageChannels)),
    check('messages_status_check', oneOf(sql`${table.status}`, messageStatuses)),
    index('messages_due_idx').on(table.sendAt).where(sql`${table.status} = 'scheduled'`),
    index('messages_sending_idx').on(table.claimedUntil).where(sql`${table.status} = 'sending'`),
    index('messages_work_order_idx').on(table.workOrderId, table.createdAt),
    index('messages_customer_idx').on(table.customerId, table.createdAt),
    index('messages_document_idx').on(table.documentId, table.createdAt).where(sql`${table.documentId} is not null`),
    check('messages_document_check', sql`(${table.documentType} is null) = (${table.documentId} is null) and (${table.documentType} is null or ${table.documentType} in ('quote', 'invoice'))`),
  ],
);

/**
 * Work orders whose messages may need planning: a row trigger on work_orders (migration 0024)
 * appends the id on insert and on changes of the schedule, status, technician or en-route mark, in
 * the same transaction. The planner claims and deletes them. A queue, not data: a backup keeps it
 * as it was (derived table), and the demo seed empties it.
 */
export const messageTriggers = pgTable('message_triggers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  workOrderId: uuid('work_order_id').notNull(),
  createdAt: createdAt(),
});

/** Per customer and channel: opted in or out, how and when; a number that cannot take texts is marked. */
export const customerMessageConsents = pgTable(
  'customer_message_consents',
  {
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    source: text('source').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    changedBy: uuid('changed_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** The provider refused this number for good (not a mobile, invalid): no text to it until it changes. */
    undeliverableAt: timestamp('undeliverable_at', { withTimezone: true }),
    undeliverableNumber: text('undeliverable_number'),
  },
  (table) => [
    primaryKey({ name: 'customer_message_consents_pkey', columns: [table.customerId, table.channel] }),
    check('customer_message_consents_channel_check', oneOf(sql`${table.channel}`, messageChannels)),
    check('customer_message_consents_status_check', oneOf(sql`${table.status}`, consentStatuses)),
    check('customer_message_consents_source_check', oneOf(sql`${table.source}`, consentSources)),
  ],
);

/** An admin's edit of a message type's template; without a row the built-in default (shared/messaging.ts) applies. */
/**
 * Texts customers send to the company's number (issue 18): kept once per provider message id
 * (a provider retries a webhook it did not see answered), with what was understood from them.
 */
export const inboundTexts = pgTable(
  'inbound_texts',
  {
    id: id(),
    /** The provider's id of the text (Twilio's MessageSid). */
    providerId: text('provider_id').notNull(),
    fromNumber: text('from_number').notNull(),
    body: text('body').notNull(),
    /** What the text was taken as: stop, start, help, confirm, reschedule or other. */
    kind: text('kind').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    workOrderId: uuid('work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('inbound_texts_provider_id_key').on(table.providerId),
    check('inbound_texts_kind_check', sql`${table.kind} in ('stop', 'start', 'help', 'confirm', 'reschedule', 'other')`),
    index('inbound_texts_customer_idx').on(table.customerId, table.createdAt),
  ],
);

export const messageTemplates = pgTable(
  'message_templates',
  {
    type: text('type').primaryKey(),
    subject: text('subject').notNull(),
    emailBody: text('email_body').notNull(),
    smsBody: text('sms_body').notNull(),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  },
  (table) => [check('message_templates_type_check', oneOf(sql`${table.type}`, messageTypes))],
);

/** One row (id 1) once an admin saves them: how long before a visit the reminder goes, and the quiet hours for texts (company time). No row: the defaults (a fresh database stays empty, as a restore requires). */
export const messagingSettings = pgTable(
  'messaging_settings',
  {
    id: integer('id').primaryKey().default(1),
    reminderLeadHours: integer('reminder_lead_hours').notNull().default(24),
    quietStart: time('quiet_start').notNull().default('21:00'),
    quietEnd: time('quiet_end').notNull().default('08:00'),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('messaging_settings_single_row_check', sql`${table.id} = 1`),
    check('messaging_settings_reminder_lead_check', sql`${table.reminderLeadHours} between 1 and 168`),
  ],
);

// Geocoding (issue 9) ------------------------------------------------------------------------------

/**
 * What a provider answered for an address, so the same address (however it was typed:
 * normalizeAddress) is never looked up twice with the same provider. Definitive failures (nothing
 * found, every result rejected by validation) are kept too; a 'Retry failed' batch looks them up
 * again. Passing failures (rate limits, provider errors, timeouts) are never kept.
 */
export const geocodeCache = pgTable(
  'geocode_cache',
  {
    provider: text('provider').notNull(),
    addressKey: text('address_key').notNull(),
    status: text('status').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    formattedAddress: text('formatted_address'),
    accuracy: text('accuracy'),
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ name: 'geocode_cache_pkey', columns: [table.provider, table.addressKey] }),
    check('geocode_cache_status_check', sql`${table.status} in ('success', 'failed')`),
    check('geocode_cache_success_has_point', sql`${table.status} <> 'success' or (${table.latitude} is not null and ${table.longitude} is not null)`),
  ],
);

/**
 * A geocoding batch run by the server. Its customers are fixed when it starts (the items below);
 * each item's result and these counters are saved as the item completes, so a crash loses nothing
 * and the batch can be resumed. At most one batch is running at a time, across every instance.
 */
export const geocodingBatches = pgTable(
  'geocoding_batches',
  {
    id: id(),
    status: text('status').notNull().default('running'),
    provider: text('provider').notNull(),
    retryFailed: boolean('retry_failed').notNull().default(false),
    total: integer('total').notNull(),
    processed: integer('processed').notNull().default(0),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    message: text('message'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Touched by the running instance every few seconds: a running batch with an old heartbeat was left by a crash. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('geocoding_batches_status_check', sql`${table.status} in ('running', 'completed', 'interrupted')`),
    check('geocoding_batches_counts_check', sql`${table.processed} = ${table.succeeded} + ${table.failed} and ${table.processed} <= ${table.total}`),
    // One running batch at a time, whichever instance starts it: a second insert (or resume) fails here.
    uniqueIndex('geocoding_batches_one_running_idx').on(table.status).where(sql`${table.status} = 'running'`),
    index('geocoding_batches_started_at_idx').on(table.startedAt),
  ],
);

/** The customers a batch took, in order, with the address as it was looked up and the result. */
export const geocodingBatchItems = pgTable(
  'geocoding_batch_items',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => geocodingBatches.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** No foreign key: a deleted customer's item stays in the batch's history. */
    customerId: uuid('customer_id').notNull(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip'),
    /** null until done; 'skipped' when the customer changed (address edited, pin placed, deleted) during the lookup. */
    status: text('status'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    formattedAddress: text('formatted_address'),
    accuracy: text('accuracy'),
    error: text('error'),
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    fromCache: boolean('from_cache').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ name: 'geocoding_batch_items_pkey', columns: [table.batchId, table.position] }),
    check('geocoding_batch_items_status_check', sql`${table.status} is null or ${table.status} in ('success', 'failed', 'skipped')`),
  ],
);

// Audit log -----------------------------------------------------------------------------------------

/**
 * Who changed what and when (issue 10), written by the services in the same transaction as the
 * change. Append-only: a trigger (migration 0014_audit_log) refuses UPDATE, DELETE and TRUNCATE, so
 * not even the application can rewrite history. No foreign key to staff_users: the entry keeps the
 * actor's name as it was (actor_name), and a removed account must not change or block history.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    /** clock_timestamp(): several entries of one transaction keep their order. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    /** The staff user who acted; null for the public site and the chat assistant. */
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    /** What the record was called at that moment (a work order number, a customer's name). */
    entityLabel: text('entity_label'),
    action: text('action').notNull(),
    /** The changed fields as {field: [before, after]}; never secrets. */
    changes: jsonb('changes').$type<Record<string, [unknown, unknown]>>().notNull().default({}),
  },
  (table) => [
    index('audit_log_entity_idx').on(table.entityType, table.entityId, table.occurredAt.desc(), table.id.desc()),
    index('audit_log_occurred_at_idx').on(table.occurredAt.desc(), table.id.desc()),
    index('audit_log_type_occurred_at_idx').on(table.entityType, table.occurredAt.desc(), table.id.desc()),
  ],
);

// Price book, quotes, invoices and payments (issue 20, decision 024-c) ----------------------------
// Money is integer cents (bigint columns read as numbers: safe up to 2^53), quantities thousandths
// of a unit, tax rates parts per million, percent discounts basis points (shared/money.ts).

const cents = (name: string) => bigint(name, { mode: 'number' });

/** What the company sells: services, labour, parts, equipment and flat-rate tasks. */
export const priceBookItems = pgTable(
  'price_book_items',
  {
    id: id(),
    kind: text('kind').notNull(),
    /** The company's own code ("DIAG-STD", "CAP-45-5"); unique ignoring case. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull().default(''),
    /** "each", "hour", "ft", "lb" ... */
    unit: text('unit').notNull().default('each'),
    priceCents: cents('price_cents').notNull(),
    costCents: cents('cost_cents').notNull().default(0),
    taxable: boolean('taxable').notNull().default(true),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('price_book_items_kind_check', oneOf(sql`${table.kind}`, priceBookItemKinds)),
    check('price_book_items_price_check', sql`${table.priceCents} between -1000000000 and 1000000000`),
    check('price_book_items_cost_check', sql`${table.costCents} between 0 and 1000000000`),
    uniqueIndex('price_book_items_code_key').on(sql`lower(${table.code})`),
    index('price_book_items_list_idx').on(table.active, table.category, sql`lower(${table.name})`, table.id),
    index('price_book_items_search_trgm_idx')
      .using('gin', sql`(lower(${table.code} || ' ' || ${table.name} || ' ' || ${table.category} || ' ' || ${table.description})) gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);

/** Sales tax rates the office picks from; a taxable line carries the rate it was priced with. */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: id(),
    name: text('name').notNull(),
    ratePpm: integer('rate_ppm').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('tax_rates_rate_check', sql`${table.ratePpm} between 0 and 1000000`),
    uniqueIndex('tax_rates_one_default_key').on(table.isDefault).where(sql`${table.isDefault}`),
  ],
);

/** One row: invoice terms, footer and reminder schedule (Settings -> Billing). */
export const billingSettings = pgTable(
  'billing_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** Due date = issue date + this many days (0: due on receipt). */
    paymentTermsDays: integer('payment_terms_days').notNull().default(30),
    /** How long a sent quote stays valid by default. */
    quoteValidityDays: integer('quote_validity_days').notNull().default(30),
    /** Printed at the bottom of invoices: how to pay by check or transfer. */
    invoiceFooter: text('invoice_footer').notNull().default(''),
    remindersEnabled: boolean('reminders_enabled').notNull().default(true),
    /** Days after the due date on which an overdue reminder goes out, ascending. */
    reminderDays: integer('reminder_days').array().notNull().default(sql`'{7,14,30}'::integer[]`),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('billing_settings_single_row_check', sql`${table.id} = 1`),
    check('billing_settings_terms_check', sql`${table.paymentTermsDays} between 0 and 365`),
    check('billing_settings_validity_check', sql`${table.quoteValidityDays} between 1 and 365`),
  ],
);

/**
 * Gapless numbers: the transaction that issues an invoice, credit note or quote updates its kind's
 * row (`update ... set next_number = next_number + 1 returning`), so concurrent issuers queue on the
 * row lock and a rolled-back transaction gives its number back. Drafts have no number.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    kind: text('kind').primaryKey(),
    nextNumber: bigint('next_number', { mode: 'number' }).notNull().default(1),
  },
  (table) => [check('document_counters_kind_check', oneOf(sql`${table.kind}`, documentCounterKinds)), check('document_counters_next_check', sql`${table.nextNumber} >= 1`)],
);

export const quotes = pgTable(
  'quotes',
  {
    id: id(),
    /** "Q-000057", given when the quote is first sent; null while a draft. */
    quoteNumber: text('quote_number'),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    workOrderId: uuid('work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    estimateRequestId: uuid('estimate_request_id').references(() => estimateRequests.id, { onDelete: 'set null' }),
    aiLeadId: uuid('ai_lead_id').references(() => aiLeads.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status').notNull().default('draft'),
    validUntil: date('valid_until'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The option the customer approved, and how (typed name, signature image key, address, time). */
    approvedOptionId: uuid('approved_option_id'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedByName: text('approved_by_name'),
    approvalSignatureKey: text('approval_signature_key'),
    approvalIp: text('approval_ip'),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    /** What the customer said when declining (optional). */
    declineReason: text('decline_reason'),
    /** The work order the approval created or updated. */
    resultingWorkOrderId: uuid('resulting_work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    /** Bumped to revoke every link sent so far. */
    linkVersion: integer('link_version').notNull().default(1),
    createdById: uuid('created_by_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('quotes_status_check', oneOf(sql`${table.status}`, quoteStatuses)),
    uniqueIndex('quotes_quote_number_key').on(table.quoteNumber),
    index('quotes_list_order_idx').on(table.createdAt.desc(), table.id.desc()),
    index('quotes_customer_id_idx').on(table.customerId, table.createdAt),
    index('quotes_work_order_id_idx').on(table.workOrderId).where(sql`${table.workOrderId} is not null`),
    index('quotes_resulting_work_order_id_idx').on(table.resultingWorkOrderId).where(sql`${table.resultingWorkOrderId} is not null`),
    index('quotes_status_idx').on(table.status, table.createdAt.desc()),
  ],
);

/** Good / better / best: a quote's options, each its own set of lines and totals. */
export const quoteOptions = pgTable(
  'quote_options',
  {
    id: id(),
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    subtotalCents: cents('subtotal_cents').notNull().default(0),
    discountCents: cents('discount_cents').notNull().default(0),
    taxCents: cents('tax_cents').notNull().default(0),
    totalCents: cents('total_cents').notNull().default(0),
  },
  (table) => [uniqueIndex('quote_options_position_key').on(table.quoteId, table.position)],
);

/** The columns every document line has (quote option lines and invoice lines). */
const documentLineColumns = () => ({
  id: id(),
  position: integer('position').notNull(),
  /** Where the line came from; its code, name and price are copied, so a later price change never alters a sent document. */
  priceBookItemId: uuid('price_book_item_id').references(() => priceBookItems.id, { onDelete: 'set null' }),
  kind: text('kind').notNull().default('service'),
  code: text('code').notNull().default(''),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  quantityMilli: integer('quantity_milli').notNull(),
  unitPriceCents: cents('unit_price_cents').notNull(),
  discountBps: integer('discount_bps').notNull().default(0),
  discountCents: cents('discount_cents').notNull().default(0),
  taxable: boolean('taxable').notNull().default(false),
  taxRatePpm: integer('tax_rate_ppm').notNull().default(0),
  /** The line's amount by shared/money.ts's rule, stored as computed when written. */
  amountCents: cents('amount_cents').notNull(),
});

export const quoteLines = pgTable(
  'quote_lines',
  {
    ...documentLineColumns(),
    optionId: uuid('option_id')
      .notNull()
      .references(() => quoteOptions.id, { onDelete: 'cascade' }),
  },
  (table) => [
    uniqueIndex('quote_lines_position_key').on(table.optionId, table.position),
    check('quote_lines_kind_check', oneOf(sql`${table.kind}`, priceBookItemKinds)),
    check('quote_lines_quantity_check', sql`${table.quantityMilli} > 0`),
    index('quote_lines_price_book_item_idx').on(table.priceBookItemId).where(sql`${table.priceBookItemId} is not null`),
  ],
);

/**
 * Invoices and credit notes. A draft is edited freely and has no number; issuing it (send) gives it
 * the next gapless number and freezes it: afterwards only its status, payments and reminders
 * change. Corrections are a credit note (kind 'credit_note', credited_invoice_id) or a void (with
 * its reason) and a new invoice (replaces_invoice_id). The bill-to block is copied at issue.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    kind: text('kind').notNull().default('invoice'),
    /** "INV-000123" / "CN-000004"; null while a draft. */
    invoiceNumber: text('invoice_number'),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    workOrderId: uuid('work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    quoteId: uuid('quote_id').references(() => quotes.id, { onDelete: 'set null' }),
    creditedInvoiceId: uuid('credited_invoice_id').references((): AnyPgColumn => invoices.id, { onDelete: 'restrict' }),
    replacesInvoiceId: uuid('replaces_invoice_id').references((): AnyPgColumn => invoices.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('draft'),
    issuedOn: date('issued_on'),
    dueOn: date('due_on'),
    billingName: text('billing_name').notNull(),
    billingAddressLines: text('billing_address_lines').array().notNull().default(sql`'{}'::text[]`),
    billingEmail: text('billing_email'),
    billingPhone: text('billing_phone'),
    notes: text('notes').notNull().default(''),
    subtotalCents: cents('subtotal_cents').notNull().default(0),
    discountCents: cents('discount_cents').notNull().default(0),
    taxCents: cents('tax_cents').notNull().default(0),
    totalCents: cents('total_cents').notNull().default(0),
    /** The tax per rate as computed (shared/money.ts), for the document and the PDF. */
    taxes: jsonb('taxes').$type<{ label: string; ratePpm: number; taxableCents: number; taxCents: number }[]>().notNull().default([]),
    /** Payments (and credit notes applied) less refunds: kept by the service in the payment's transaction. */
    paidCents: cents('paid_cents').notNull().default(0),
    /** total - paid: what is still owed (never stored apart from these two). */
    balanceCents: cents('balance_cents').generatedAlwaysAs(sql`total_cents - paid_cents`),
    /** What the Invoices screen's search matches: number and name, lower case (invoices_search_trgm_idx; stored, so a page's filter reads it instead of computing it per row, decision 026-a). */
    searchText: text('search_text').generatedAlwaysAs(sql`lower(coalesce(invoice_number, '') || ' ' || billing_name)`),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    lastReminderAt: timestamp('last_reminder_at', { withTimezone: true }),
    /** How many overdue reminders went out (the schedule's index of the next one). */
    remindersSent: integer('reminders_sent').notNull().default(0),
    /** Bumped to revoke every link sent so far. */
    linkVersion: integer('link_version').notNull().default(1),
    createdById: uuid('created_by_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('invoices_kind_check', oneOf(sql`${table.kind}`, invoiceKinds)),
    check('invoices_status_check', oneOf(sql`${table.status}`, invoiceStatuses)),
    check('invoices_number_when_issued_check', sql`(${table.status} = 'draft') = (${table.invoiceNumber} is null)`),
    check('invoices_credit_note_check', sql`(${table.kind} = 'credit_note') = (${table.creditedInvoiceId} is not null)`),
    check('invoices_total_check', sql`${table.totalCents} >= 0`),
    check('invoices_void_reason_check', sql`${table.status} <> 'void' or ${table.voidReason} is not null`),
    uniqueIndex('invoices_invoice_number_key').on(table.invoiceNumber),
    // The Invoices screen's order, whole and per status: a page is the first 50 of one of these.
    index('invoices_list_order_idx').on(table.createdAt.desc(), table.id.desc()),
    index('invoices_status_list_order_idx').on(table.status, table.createdAt.desc(), table.id.desc()),
    index('invoices_customer_id_idx').on(table.customerId, table.createdAt),
    index('invoices_work_order_id_idx').on(table.workOrderId).where(sql`${table.workOrderId} is not null`),
    // A/R figures and overdue reminders read only open invoices, by due date.
    // (due_on, id): the overdue list's order, so its page is the index's first 50 rows, not a sort of a day's invoices.
    index('invoices_open_due_idx').on(table.dueOn, table.id).where(sql`${table.status} in ('sent', 'partially_paid')`),
    index('invoices_paid_at_idx').on(table.paidAt).where(sql`${table.paidAt} is not null`),
    index('invoices_search_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`).with({ fastupdate: false }),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    ...documentLineColumns(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
  },
  (table) => [
    uniqueIndex('invoice_lines_position_key').on(table.invoiceId, table.position),
    check('invoice_lines_kind_check', oneOf(sql`${table.kind}`, priceBookItemKinds)),
    check('invoice_lines_quantity_check', sql`${table.quantityMilli} > 0`),
    // The price book's "in use" check and its foreign key's check on delete read these.
    index('invoice_lines_price_book_item_idx').on(table.priceBookItemId).where(sql`${table.priceBookItemId} is not null`),
  ],
);

/**
 * Money received against an invoice (kind 'payment') or given back (kind 'refund', refund_of the
 * payment). amount_cents is always positive; the invoice's paid_cents = payments - refunds.
 * Never updated or deleted: a mistake is corrected by a refund entry.
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull().default('payment'),
    method: text('method').notNull(),
    amountCents: cents('amount_cents').notNull(),
    receivedOn: date('received_on').notNull(),
    /** Check number, transfer reference, card's last four ... */
    reference: text('reference').notNull().default(''),
    note: text('note').notNull().default(''),
    refundOfPaymentId: uuid('refund_of_payment_id').references((): AnyPgColumn => payments.id, { onDelete: 'restrict' }),
    /** A credit note applied to this invoice (method 'credit_note'). */
    creditNoteId: uuid('credit_note_id').references(() => invoices.id, { onDelete: 'restrict' }),
    /** Online payments: the provider's payment (e.g. Stripe payment intent): one payment each. */
    providerPaymentId: text('provider_payment_id'),
    /** A client's retry (the technician app offline) records one payment, not two. */
    idempotencyKey: text('idempotency_key'),
    recordedById: uuid('recorded_by_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    recordedByName: text('recorded_by_name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('payments_kind_check', oneOf(sql`${table.kind}`, paymentKinds)),
    check('payments_method_check', oneOf(sql`${table.method}`, paymentMethods)),
    check('payments_amount_check', sql`${table.amountCents} > 0`),
    check('payments_refund_check', sql`(${table.kind} = 'refund') = (${table.refundOfPaymentId} is not null)`),
    index('payments_invoice_id_idx').on(table.invoiceId, table.createdAt),
    index('payments_received_on_idx').on(table.receivedOn, table.id),
    uniqueIndex('payments_provider_payment_key').on(table.kind, table.providerPaymentId).where(sql`${table.providerPaymentId} is not null`),
    uniqueIndex('payments_idempotency_key').on(table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
  ],
);

/** Card checkouts started from an invoice's link (the provider's session), for the webhook to find its invoice. */
export const paymentCheckouts = pgTable(
  'payment_checkouts',
  {
    sessionId: text('session_id').primaryKey(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    amountCents: cents('amount_cents').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('payment_checkouts_invoice_id_idx').on(table.invoiceId, table.createdAt)],
);

/** Each payment-provider webhook event handled once, by its id (repeats and out-of-order events are answered 200 and skipped). */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  /** What handling it did ("recorded payment ...", "ignored: unknown session"). */
  outcome: text('outcome').notNull(),
});

/**
 * Links customers open without an account (a quote to approve, an invoice to see and pay): the
 * link carries 32 random bytes; only their SHA-256 is stored, so neither the database nor a backup
 * can rebuild a link. Each expires, and is refused once its document's link_version moved on.
 */
export const documentLinks = pgTable(
  'document_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** 'quote', 'invoice', or 'visit' (a work order's visit, issue 21). */
    documentType: text('document_type').notNull(),
    documentId: uuid('document_id').notNull(),
    linkVersion: integer('link_version').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
  },
  (table) => [
    check('document_links_type_check', sql`${table.documentType} in ('quote', 'invoice', 'visit')`),
    index('document_links_document_idx').on(table.documentType, table.documentId),
    index('document_links_expires_at_idx').on(table.expiresAt),
  ],
);

// Maintenance agreements (issue 22, decision 027-b) ----------------------------------------------

export const agreementNumberSequence = pgSequence('agreement_number_seq', { startWith: 1001 });

/** A customer's membership in one of the site's plans; its current term is the last row of maintenance_agreement_terms. */
export const maintenanceAgreements = pgTable(
  'maintenance_agreements',
  {
    id: id(),
    agreementNumber: text('agreement_number')
      .notNull()
      .default(sql`'MA-' || nextval('agreement_number_seq')`),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    planId: text('plan_id').notNull(),
    status: text('status').notNull().default('active'),
    startDate: date('start_date').notNull(),
    termMonths: integer('term_months').notNull().default(12),
    currentTermNumber: integer('current_term_number').notNull().default(1),
    currentTermStartsOn: date('current_term_starts_on').notNull(),
    currentTermEndsOn: date('current_term_ends_on').notNull(),
    priceCents: integer('price_cents').notNull(),
    billing: text('billing').notNull().default('yearly'),
    autoRenew: boolean('auto_renew').notNull().default(true),
    notes: text('notes').notNull().default(''),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancellationReason: text('cancellation_reason'),
    /** The lead a sign-up from the site made (pending until staff confirm). */
    leadId: uuid('lead_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('maintenance_agreements_number_key').on(table.agreementNumber),
    index('maintenance_agreements_customer_idx').on(table.customerId),
    index('maintenance_agreements_status_term_end_idx').on(table.status, table.currentTermEndsOn),
    check('maintenance_agreements_plan_check', oneOf(sql`${table.planId}`, maintenancePlanIds)),
    check('maintenance_agreements_status_check', oneOf(sql`${table.status}`, agreementStoredStatuses)),
    check('maintenance_agreements_billing_check', oneOf(sql`${table.billing}`, agreementBillings)),
    check('maintenance_agreements_term_check', sql`${table.currentTermEndsOn} >= ${table.currentTermStartsOn}`),
  ],
);

/** Each term of an agreement: the first, then one per renewal; the renewal reminder is sent once per term. */
export const maintenanceAgreementTerms = pgTable(
  'maintenance_agreement_terms',
  {
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => maintenanceAgreements.id, { onDelete: 'cascade' }),
    termNumber: integer('term_number').notNull(),
    planId: text('plan_id').notNull(),
    startsOn: date('starts_on').notNull(),
    endsOn: date('ends_on').notNull(),
    priceCents: integer('price_cents').notNull(),
    renewalRemindedAt: timestamp('renewal_reminded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.agreementId, table.termNumber] })],
);

/** The equipment records an agreement covers. */
export const maintenanceAgreementEquipment = pgTable(
  'maintenance_agreement_equipment',
  {
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => maintenanceAgreements.id, { onDelete: 'cascade' }),
    equipmentId: uuid('equipment_id')
      .notNull()
      .references(() => equipment.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.agreementId, table.equipmentId] }), index('maintenance_agreement_equipment_equipment_idx').on(table.equipmentId)],
);

/**
 * The monthly bills of a term billed monthly (months 2 to 12; the renewal's invoice is month 1): at
 * most one per agreement, term and month, claimed by its insert, so a restart or a second instance
 * bills none twice (decision 027-b). The invoice may be deleted by the office; the month stays billed.
 */
export const maintenanceAgreementBills = pgTable(
  'maintenance_agreement_bills',
  {
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => maintenanceAgreements.id, { onDelete: 'cascade' }),
    termNumber: integer('term_number').notNull(),
    month: integer('month').notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.agreementId, table.termNumber, table.month] }), check('maintenance_agreement_bills_month_check', sql`${table.month} between 2 and 12`)],
);

/** A plan's visit of one season: at most one per agreement and period (a restart or a second instance makes none twice). */
export const maintenanceVisits = pgTable(
  'maintenance_visits',
  {
    id: id(),
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => maintenanceAgreements.id, { onDelete: 'cascade' }),
    /** '2027-spring'. */
    period: text('period').notNull(),
    season: text('season').notNull(),
    termNumber: integer('term_number').notNull(),
    dueFrom: date('due_from').notNull(),
    dueBy: date('due_by').notNull(),
    /** Null once staff deleted the work order: the period stays taken, so it is not generated again. */
    workOrderId: uuid('work_order_id').references(() => workOrders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('maintenance_visits_agreement_period_key').on(table.agreementId, table.period),
    uniqueIndex('maintenance_visits_work_order_key').on(table.workOrderId),
    index('maintenance_visits_due_idx').on(table.dueFrom, table.dueBy),
    check('maintenance_visits_season_check', oneOf(sql`${table.season}`, Object.keys(maintenanceSeasons))),
  ],
);

/**
 * A plan sign-up from the site (issue 22, decision 027-b): no customer yet; the office confirms it
 * (then `agreement_id` and `customer_id` say what it became) or declines it with a reason. A
 * double-submitted form carries the same idempotency key and makes one row.
 */
export const maintenanceAgreementSignups = pgTable(
  'maintenance_agreement_signups',
  {
    id: id(),
    planId: text('plan_id').notNull(),
    billing: text('billing').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    zip: text('zip').notNull(),
    note: text('note').notNull().default(''),
    status: text('status').notNull().default('pending'),
    declineReason: text('decline_reason'),
    agreementId: uuid('agreement_id').references(() => maintenanceAgreements.id, { onDelete: 'set null' }),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** The lead the sign-up made for the Leads screen. */
    leadId: uuid('lead_id').references(() => estimateRequests.id, { onDelete: 'set null' }),
    idempotencyKey: text('idempotency_key'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Online payment (decision 027-c): the Checkout Session, the money Stripe confirmed, its refund. */
    paymentStatus: text('payment_status').notNull().default('none'),
    checkoutSessionId: text('checkout_session_id'),
    checkoutAmountCents: integer('checkout_amount_cents'),
    paymentIntentId: text('payment_intent_id'),
    paidCents: integer('paid_cents'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundId: text('refund_id'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The first term's invoice a paid sign-up's confirmation made, with the payment on it. */
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('maintenance_agreement_signups_idempotency_key_key').on(table.idempotencyKey),
    uniqueIndex('maintenance_agreement_signups_checkout_session_key').on(table.checkoutSessionId),
    uniqueIndex('maintenance_agreement_signups_payment_intent_key').on(table.paymentIntentId),
    check('maintenance_agreement_signups_payment_status_check', oneOf(sql`${table.paymentStatus}`, agreementSignupPaymentStatuses)),
    index('maintenance_agreement_signups_status_created_idx').on(table.status, table.createdAt),
    check('maintenance_agreement_signups_plan_check', oneOf(sql`${table.planId}`, maintenancePlanIds)),
    check('maintenance_agreement_signups_billing_check', oneOf(sql`${table.billing}`, agreementBillings)),
    check('maintenance_agreement_signups_status_check', oneOf(sql`${table.status}`, agreementSignupStatuses)),
    check('maintenance_agreement_signups_decline_check', sql`${table.status} <> 'declined' or ${table.declineReason} is not null`),
  ],
);

// Limits every instance sees (issue 23) -----------------------------------------------------------

/**
 * The public routes' request counts per client and route (@fastify/rate-limit's store on
 * PostgreSQL, server/plugins/rate-limit-store.ts): every instance counts in one place. The key is
 * a SHA-256 of the route and the client's address, so no address is kept in plain text.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('rate_limit_counters_resets_at_idx').on(table.resetsAt)],
);
