-- Trigram (GIN) indexes rebuilt to insert straight into the index (fastupdate off). With the
-- default pending list, a search scans every entry not yet merged, and the embedded database has
-- no autovacuum to merge them: after a bulk load a substring search slowed down fivefold.
-- Customers and work orders are written at office pace, so the cost on inserts does not show.
DROP INDEX "customers_name_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_phone_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_email_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_address_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_title_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_description_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_number_trgm_idx";--> statement-breakpoint
CREATE INDEX "customers_name_trgm_idx" ON "customers" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "customers_phone_trgm_idx" ON "customers" USING gin ("phone" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("email" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "customers_address_trgm_idx" ON "customers" USING gin ("address" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "work_orders_title_trgm_idx" ON "work_orders" USING gin ("title" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "work_orders_description_trgm_idx" ON "work_orders" USING gin ("description" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "work_orders_number_trgm_idx" ON "work_orders" USING gin ("work_order_number" gin_trgm_ops) WITH (fastupdate=false);