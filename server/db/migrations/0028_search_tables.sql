-- The staff searches read one narrow table each (decision 023-a): work_order_search holds, per work
-- order, lower(title, description, number, customer name, customer phone) joined by U+001F with the
-- list's order keys and status; customer_search holds the directory's search text (exactly the
-- customers_search_trgm_idx expression) and lower(name). A page is a walk of the narrow table in
-- list order, and the capped count a bitmap scan of its one trigram index. Kept by triggers: a
-- statement trigger per bulk insert (one insert ... select), a row trigger for the updates that
-- change a searched field or an order key, cascades for deletes.
CREATE TABLE "customer_search" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"sort_name" text NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_search" (
	"work_order_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"service_date" date NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "customer_search" ("customer_id", "sort_name", "search_text")
SELECT id, lower(name), lower(name || ' ' || phone || ' ' || coalesce(email, '') || ' ' || address) FROM customers;
--> statement-breakpoint
INSERT INTO "work_order_search" ("work_order_id", "status", "service_date", "created_at", "search_text")
SELECT w.id, w.status, w.service_date, w.created_at,
  lower(w.title || chr(31) || w.description || chr(31) || w.work_order_number || chr(31) || c.name || chr(31) || c.phone)
FROM work_orders w JOIN customers c ON c.id = w.customer_id;
--> statement-breakpoint
ALTER TABLE "customer_search" ADD CONSTRAINT "customer_search_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_search" ADD CONSTRAINT "work_order_search_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_search_text_trgm_idx" ON "customer_search" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "customer_search_order_idx" ON "customer_search" USING btree ("sort_name","customer_id");--> statement-breakpoint
CREATE INDEX "work_order_search_text_trgm_idx" ON "work_order_search" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "work_order_search_order_idx" ON "work_order_search" USING btree ("service_date" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"work_order_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "work_order_search_status_order_idx" ON "work_order_search" USING btree ("status","service_date" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"work_order_id" DESC NULLS FIRST);
--> statement-breakpoint
CREATE FUNCTION work_order_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_order_search (work_order_id, status, service_date, created_at, search_text)
  SELECT w.id, w.status, w.service_date, w.created_at,
    lower(w.title || chr(31) || w.description || chr(31) || w.work_order_number || chr(31) || c.name || chr(31) || c.phone)
  FROM new_rows w JOIN customers c ON c.id = w.customer_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER work_orders_search_insert AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_search_insert();
--> statement-breakpoint
CREATE FUNCTION work_order_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_order_search (work_order_id, status, service_date, created_at, search_text)
  SELECT NEW.id, NEW.status, NEW.service_date, NEW.created_at,
    lower(NEW.title || chr(31) || NEW.description || chr(31) || NEW.work_order_number || chr(31) || c.name || chr(31) || c.phone)
  FROM customers c WHERE c.id = NEW.customer_id
  ON CONFLICT (work_order_id) DO UPDATE SET status = excluded.status, service_date = excluded.service_date,
    created_at = excluded.created_at, search_text = excluded.search_text;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER work_orders_search_update AFTER UPDATE ON work_orders FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description
    OR OLD.work_order_number IS DISTINCT FROM NEW.work_order_number OR OLD.customer_id IS DISTINCT FROM NEW.customer_id
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.service_date IS DISTINCT FROM NEW.service_date
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION work_order_search_update();
--> statement-breakpoint
CREATE FUNCTION customer_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_search (customer_id, sort_name, search_text)
  SELECT id, lower(name), lower(name || ' ' || phone || ' ' || coalesce(email, '') || ' ' || address) FROM new_rows;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customers_search_insert AFTER INSERT ON customers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_search_insert();
--> statement-breakpoint
CREATE FUNCTION customer_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_search (customer_id, sort_name, search_text)
  VALUES (NEW.id, lower(NEW.name), lower(NEW.name || ' ' || NEW.phone || ' ' || coalesce(NEW.email, '') || ' ' || NEW.address))
  ON CONFLICT (customer_id) DO UPDATE SET sort_name = excluded.sort_name, search_text = excluded.search_text;
  -- A work order's search text carries its customer's name and phone.
  IF OLD.name IS DISTINCT FROM NEW.name OR OLD.phone IS DISTINCT FROM NEW.phone THEN
    UPDATE work_order_search AS s
      SET search_text = lower(w.title || chr(31) || w.description || chr(31) || w.work_order_number || chr(31) || NEW.name || chr(31) || NEW.phone)
      FROM work_orders w
      WHERE w.customer_id = NEW.id AND s.work_order_id = w.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customers_search_update AFTER UPDATE ON customers FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.phone IS DISTINCT FROM NEW.phone
    OR OLD.email IS DISTINCT FROM NEW.email OR OLD.address IS DISTINCT FROM NEW.address OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION customer_search_update();
