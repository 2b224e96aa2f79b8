CREATE TABLE "work_order_status_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "work_orders_status_service_date_idx";--> statement-breakpoint
CREATE INDEX "work_orders_list_order_idx" ON "work_orders" USING btree ("service_date" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "work_orders_status_list_order_idx" ON "work_orders" USING btree ("status","service_date" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);