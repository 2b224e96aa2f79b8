import { and, asc, count, desc, eq, ilike, like, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { CustomerValues } from '#shared/customer.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { customerPhotos, customerSearch, customers, equipment, workOrders } from '#server/db/schema/index.ts';
import { cappedTotal, countCap } from '#server/db/count-cap.ts';
import { containsPattern } from '#server/db/like-pattern.ts';
import { contactEmail, contactPhoneDigits, type Contact } from './contact-match.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerPhotoRow = Pick<typeof customerPhotos.$inferSelect, 'id' | 'customerId' | 'objectKey' | 'contentType' | 'width' | 'height' | 'workOrderId' | 'createdAt'>;
export type NewCustomerPhoto = Pick<typeof customerPhotos.$inferInsert, 'customerId' | 'objectKey' | 'contentType' | 'width' | 'height' | 'sizeBytes'> &
  Partial<Pick<typeof customerPhotos.$inferInsert, 'workOrderId' | 'idempotencyKey' | 'idempotencyIndex'>>;

/** What the directory and the pickers show of a customer. */
const listColumns = {
  id: customers.id,
  name: customers.name,
  type: customers.type,
  phone: customers.phone,
  email: customers.email,
  address: customers.address,
  city: customers.city,
  state: customers.state,
  zip: customers.zip,
};
export type CustomerListRow = Pick<CustomerRow, keyof typeof listColumns>;

const photoColumns = {
  id: customerPhotos.id,
  customerId: customerPhotos.customerId,
  objectKey: customerPhotos.objectKey,
  contentType: customerPhotos.contentType,
  width: customerPhotos.width,
  height: customerPhotos.height,
  workOrderId: customerPhotos.workOrderId,
  createdAt: customerPhotos.createdAt,
};

/** The directory's order: the customers_name_idx index (lower(name), id) serves it. */
const byName = [sql`lower(${customers.name})`, asc(customers.id)];

/**
 * Case-insensitive substring match over name, phone, e-mail and address: customer_search's text
 * (lower(name || ' ' || phone || ' ' || coalesce(email, '') || ' ' || address), kept by triggers;
 * migration 0028_search_tables, decision 023-a), served by its one trigram index.
 */
const directoryMatch = (search: string): SQL => like(customerSearch.searchText, containsPattern(search.toLowerCase()));

/** The last 10 digits of a phone number, however it was typed: exactly the customers_phone_digits_created_idx expression. */
export const customerPhoneDigits = sql`right(regexp_replace(${customers.phone}, '[^0-9]', '', 'g'), 10)`;

/** The address fields that place a customer on the map; changing any of them voids the coordinates. */
function addressChanged(values: CustomerValues): SQL {
  return sql`(${customers.address} is distinct from ${values.address} or ${customers.city} is distinct from ${values.city} or ${customers.state} is distinct from ${values.state} or ${customers.zip} is distinct from ${values.zip})`;
}

/** A column's old value, or null when the address changed (SET expressions see the row before the update). */
const unlessMoved = (moved: SQL, column: AnyColumn) =>
  sql`case when ${moved} then null else ${column} end`;

/** Equipment as every screen answers it (customerEquipmentSchema): the profile, the work order, the technician's visit. */
export const equipmentColumns = {
  id: equipment.id,
  equipmentType: equipment.equipmentType,
  location: equipment.location,
  brand: equipment.brand,
  model: equipment.model,
  serialNumber: equipment.serialNumber,
  refrigerant: equipment.refrigerant,
  tonnage: equipment.tonnage,
  warrantyStatus: equipment.warrantyStatus,
};

export function createCustomerRepository(db: Database) {
  const queries = {
    /** One page of the directory without a search, in customers_name_idx order. Built separately so the benchmark can print the exact SQL. */
    directoryPage: (page: number, pageSize: number) =>
      db
        .select(listColumns)
        .from(customers)
        .orderBy(...byName)
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    /** All customers counted up to countCap + 1 (more than the cap reads as "1,000+"): a count that stops, not one of every row. */
    directoryTotal: () => db.select({ total: count() }).from(db.select({ id: customers.id }).from(customers).limit(countCap + 1).as('matching')),
    /**
     * A page of search matches and, on every row, the matches counted up to countCap + 1: one
     * statement over customer_search, whose (sort_name, customer_id) order is the directory's
     * (decision 023-a). The page is a walk of customer_search_order_idx for a common text, a
     * sort of the few matches for a rare one (the planner's choice, as before).
     */
    directorySearchPage: (search: string, page: number, pageSize: number) => {
      const matching = db
        .select({ customerId: customerSearch.customerId, sortName: customerSearch.sortName })
        .from(customerSearch)
        .where(directoryMatch(search))
        .orderBy(asc(customerSearch.sortName), asc(customerSearch.customerId))
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .as('page');
      const counted = db.select({ id: customerSearch.customerId }).from(customerSearch).where(directoryMatch(search)).limit(countCap + 1).as('matching');
      return db
        .select({ ...listColumns, matches: sql<number>`(select count(*)::int from ${counted})`.mapWith(Number) })
        .from(matching)
        .innerJoin(customers, eq(customers.id, matching.customerId))
        .orderBy(asc(matching.sortName), asc(matching.customerId));
    },
    /** The search's matches counted up to countCap + 1, when its page is empty (no match, or past the end). */
    directorySearchTotal: (search: string) =>
      db.select({ total: count() }).from(db.select({ id: customerSearch.customerId }).from(customerSearch).where(directoryMatch(search)).limit(countCap + 1).as('matching')),
    // The profile's four reads take a value or a placeholder: they are also prepared once, below.
    customer: (id: string | Placeholder) => db.select().from(customers).where(eq(customers.id, id)),
    equipment: (customerId: string | Placeholder) =>
      db
        .select(equipmentColumns)
        .from(equipment)
        .where(eq(equipment.customerId, customerId))
        .orderBy(asc(equipment.createdAt), asc(equipment.id)),
    photos: (customerId: string | Placeholder) =>
      db
        .select(photoColumns)
        .from(customerPhotos)
        .where(eq(customerPhotos.customerId, customerId))
        .orderBy(desc(customerPhotos.createdAt), desc(customerPhotos.id)),
    workOrders: (customerId: string | Placeholder, limit: number | Placeholder) =>
      db
        .select({
          id: workOrders.id,
          workOrderNumber: workOrders.workOrderNumber,
          title: workOrders.title,
          status: workOrders.status,
          priority: workOrders.priority,
          serviceType: workOrders.serviceType,
          serviceDate: workOrders.serviceDate,
          createdAt: workOrders.createdAt,
        })
        .from(workOrders)
        .where(eq(workOrders.customerId, customerId))
        .orderBy(desc(workOrders.createdAt), desc(workOrders.id))
        .limit(limit),
  };

  /**
   * The profile runs on every customer page view: its statements are built once, not per request
   * (Drizzle's query building and SQL rendering is about a third of the time of these small reads).
   */
  const profileId = sql.placeholder('customerId');
  const profileStatements = {
    customer: queries.customer(profileId).prepare('customer_profile_customer'),
    equipment: queries.equipment(profileId).prepare('customer_profile_equipment'),
    photos: queries.photos(profileId).prepare('customer_profile_photos'),
    workOrders: queries.workOrders(profileId, sql.placeholder('limit')).prepare('customer_profile_work_orders'),
  };

  return {
    queries,

    /** The customer (undefined when there is none), its equipment, its photos newest first and its latest work orders. */
    async profile(customerId: string, workOrderLimit: number) {
      const [rows, equipmentRows, photoRows, workOrderRows] = await Promise.all([
        profileStatements.customer.execute({ customerId }),
        profileStatements.equipment.execute({ customerId }),
        profileStatements.photos.execute({ customerId }),
        profileStatements.workOrders.execute({ customerId, limit: workOrderLimit }),
      ]);
      return { customer: rows[0], equipment: equipmentRows, photos: photoRows, workOrders: workOrderRows };
    },

    /**
     * A page of matches and the number of matches. A page that is neither full nor empty is the
     * last one and already tells the exact total: then the count is skipped. Otherwise the count
     * stops past countCap: beyond it the total is "at least" (the cap, or the rows up to this full
     * page if more) and `totalCapped` is true.
     */
    async directory(search: string, page: number, pageSize: number): Promise<{ rows: CustomerListRow[]; total: number; totalCapped: boolean }> {
      if (!search) {
        const rows = await queries.directoryPage(page, pageSize);
        if (rows.length > 0 && rows.length < pageSize) return { rows, total: (page - 1) * pageSize + rows.length, totalCapped: false };
        const [counted] = await queries.directoryTotal();
        return { rows, ...cappedTotal(counted?.total ?? 0, rows.length === 0 ? 0 : (page - 1) * pageSize + rows.length) };
      }
      const found = await queries.directorySearchPage(search, page, pageSize);
      const rows = found.map(({ matches: _matches, ...row }) => row);
      if (rows.length > 0 && rows.length < pageSize) return { rows, total: (page - 1) * pageSize + rows.length, totalCapped: false };
      const counted = found[0]?.matches ?? (await queries.directorySearchTotal(search))[0]?.total ?? 0;
      return { rows, ...cappedTotal(counted, rows.length === 0 ? 0 : (page - 1) * pageSize + rows.length) };
    },

    /** The pickers: name or phone contains the text, by name. */
    async lookup(text: string, limit: number): Promise<CustomerListRow[]> {
      const pattern = containsPattern(text);
      const rows = await db
        .select(listColumns)
        .from(customers)
        .where(or(ilike(customers.name, pattern), ilike(customers.phone, pattern)))
        .orderBy(...byName)
        .limit(limit);
      return rows;
    },

    async findById(id: string): Promise<CustomerRow | undefined> {
      return (await queries.customer(id))[0];
    },

    /** The customer, locked until the transaction ends (what a change is compared against). */
    async lockById(id: string): Promise<CustomerRow | undefined> {
      return (await db.select().from(customers).where(eq(customers.id, id)).for('update'))[0];
    },

    /**
     * The customer a caller already is: the same phone number (last 10 digits, however typed) or
     * the same e-mail (any case), oldest first. Each side is its own index-ordered lookup
     * (customers_phone_digits_created_idx, customers_email_lower_created_idx) and the older of the
     * two wins: one `or` over both let the planner walk every customer in creation order instead
     * (decision 020-c).
     */
    async findByContact(contact: Contact): Promise<CustomerListRow | undefined> {
      const digits = contactPhoneDigits(contact.phone);
      const email = contactEmail(contact.email);
      const oldest = (condition: SQL) =>
        db.select({ id: customers.id }).from(customers).where(condition).orderBy(asc(customers.createdAt), asc(customers.id)).limit(1);
      const byPhone = oldest(sql`${customerPhoneDigits} = ${digits}`);
      const candidates = email
        ? sql`(${byPhone}) union all (${oldest(sql`lower(${customers.email}) = ${email}`)})`
        : sql`${byPhone}`;
      const rows = await db
        .select(listColumns)
        .from(customers)
        .where(sql`${customers.id} in (${candidates})`)
        .orderBy(asc(customers.createdAt), asc(customers.id))
        .limit(1);
      return rows[0];
    },

    /**
     * `findByContact` for several contacts in one statement (a group of chat bookings, decision
     * 024-a): for each contact, in order, the id of the customer it finds, or null. The same two
     * index-ordered lookups per contact, correlated with a VALUES list of the contacts.
     */
    async findIdsByContacts(contacts: Contact[]): Promise<(string | null)[]> {
      if (contacts.length === 0) return [];
      const oldest = (condition: SQL) =>
        db.select({ id: customers.id }).from(customers).where(condition).orderBy(asc(customers.createdAt), asc(customers.id)).limit(1);
      const byPhone = oldest(sql`${customerPhoneDigits} = contact.digits`);
      const byEmail = oldest(sql`lower(${customers.email}) = contact.email`);
      const list = sql.join(
        contacts.map((contact, index) => sql`(${contactPhoneDigits(contact.phone)}::text, ${contactEmail(contact.email) ?? null}::text, ${index}::int)`),
        sql`, `,
      );
      const result = await db.execute<{ position: number; id: string | null }>(sql`
        select contact.position, (
          select ${customers.id} from ${customers}
          where ${customers.id} in ((${byPhone}) union all (${byEmail}))
          order by ${customers.createdAt}, ${customers.id} limit 1
        ) as id
        from (values ${list}) as contact(digits, email, position)`);
      const found = new Map(result.rows.map((row) => [Number(row.position), row.id]));
      return contacts.map((_, index) => found.get(index) ?? null);
    },

    async insert(values: CustomerValues): Promise<CustomerRow> {
      const rows = await db.insert(customers).values(values).returning();
      return rows[0]!;
    },

    /**
     * The whole form in one statement. When the address, city, state or ZIP changes, the
     * coordinates and the geocoder's results are cleared and the customer is pending again (spec
     * README decision), decided against the row as it is at that moment, not as it was read.
     */
    async update(id: string, values: CustomerValues): Promise<CustomerRow | undefined> {
      const moved = addressChanged(values);
      const rows = await db
        .update(customers)
        .set({
          ...values,
          latitude: unlessMoved(moved, customers.latitude),
          longitude: unlessMoved(moved, customers.longitude),
          geocodedAt: unlessMoved(moved, customers.geocodedAt),
          formattedAddress: unlessMoved(moved, customers.formattedAddress),
          geocodingError: unlessMoved(moved, customers.geocodingError),
          geocodingAccuracy: unlessMoved(moved, customers.geocodingAccuracy),
          geocodingStatus: sql`case when ${moved} then 'pending' else ${customers.geocodingStatus} end`,
          updatedAt: sql`now()`,
        })
        .where(eq(customers.id, id))
        .returning();
      return rows[0];
    },

    /**
     * Deletes the customer unless it has work orders, in one transaction: the row lock makes a
     * work order created at the same moment wait, then fail on its foreign key, instead of
     * slipping in between the count and the delete. Photo and equipment rows go with the customer
     * (ON DELETE CASCADE).
     */
    async deleteUnlessWorkOrders(
      id: string,
      /** Runs in the same transaction once the customer is deleted (the audit entry). */
      onDeleted?: (tx: Database, deleted: CustomerRow) => Promise<void>,
    ): Promise<{ outcome: 'deleted' | 'not-found' } | { outcome: 'has-work-orders'; workOrderCount: number }> {
      return withTransaction(db, async (tx) => {
        const [locked] = await tx.select().from(customers).where(eq(customers.id, id)).for('update');
        if (!locked) return { outcome: 'not-found' as const };
        const [{ workOrderCount } = { workOrderCount: 0 }] = await tx
          .select({ workOrderCount: count() })
          .from(workOrders)
          .where(eq(workOrders.customerId, id));
        if (workOrderCount > 0) return { outcome: 'has-work-orders' as const, workOrderCount };
        await tx.delete(customers).where(eq(customers.id, id));
        await onDeleted?.(tx, locked);
        return { outcome: 'deleted' as const };
      });
    },

    async insertPhotos(rows: NewCustomerPhoto[]): Promise<CustomerPhotoRow[]> {
      return db.insert(customerPhotos).values(rows).returning(photoColumns);
    },

    async findPhoto(customerId: string, photoId: string): Promise<CustomerPhotoRow | undefined> {
      const rows = await db
        .select(photoColumns)
        .from(customerPhotos)
        .where(and(eq(customerPhotos.id, photoId), eq(customerPhotos.customerId, customerId)));
      return rows[0];
    },

    async deletePhoto(customerId: string, photoId: string): Promise<CustomerPhotoRow | undefined> {
      const rows = await db
        .delete(customerPhotos)
        .where(and(eq(customerPhotos.id, photoId), eq(customerPhotos.customerId, customerId)))
        .returning(photoColumns);
      return rows[0];
    },
  };
}

export type CustomerRepository = ReturnType<typeof createCustomerRepository>;
