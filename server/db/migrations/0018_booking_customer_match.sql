ALTER TABLE "ai_leads" ADD COLUMN "possible_customer_id" uuid;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "service_address" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "service_city" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "service_state" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "service_zip" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "possible_customer_id" uuid;--> statement-breakpoint
ALTER TABLE "ai_leads" ADD CONSTRAINT "ai_leads_possible_customer_id_customers_id_fk" FOREIGN KEY ("possible_customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_possible_customer_id_customers_id_fk" FOREIGN KEY ("possible_customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;