DROP INDEX "customers_email_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_address_trgm_idx";--> statement-breakpoint
CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin ((lower("name" || ' ' || "phone" || ' ' || coalesce("email", '') || ' ' || "address")) gin_trgm_ops) WITH (fastupdate=false);