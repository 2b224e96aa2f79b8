-- The chat booking's possible-match lookup (phone digits or lower-cased e-mail, oldest first) as
-- two index-ordered probes: with creation order in the index, each side's oldest match is its
-- first entry (decision 020-c). Named 0022 in case another branch also adds a 0021.
DROP INDEX "customers_phone_digits_idx";--> statement-breakpoint
DROP INDEX "customers_email_lower_idx";--> statement-breakpoint
CREATE INDEX "customers_phone_digits_created_idx" ON "customers" USING btree (right(regexp_replace("phone", '[^0-9]', '', 'g'), 10),"created_at","id");--> statement-breakpoint
CREATE INDEX "customers_email_lower_created_idx" ON "customers" USING btree (lower("email"),"created_at","id");
