ALTER TABLE "quotes" ADD COLUMN "decline_reason" text;--> statement-breakpoint
CREATE INDEX "quotes_resulting_work_order_id_idx" ON "quotes" USING btree ("resulting_work_order_id") WHERE "quotes"."resulting_work_order_id" is not null;--> statement-breakpoint
CREATE INDEX "quotes_status_idx" ON "quotes" USING btree ("status","created_at" DESC NULLS LAST);