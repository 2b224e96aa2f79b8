DROP INDEX "invoices_open_due_idx";--> statement-breakpoint
DROP INDEX "invoices_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(invoice_number, '') || ' ' || billing_name)) STORED;--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_on","id") WHERE "invoices"."status" in ('sent', 'partially_paid');--> statement-breakpoint
CREATE INDEX "invoices_search_trgm_idx" ON "invoices" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);