CREATE TABLE "tech_actions" (
	"idempotency_key" uuid PRIMARY KEY NOT NULL,
	"work_order_id" uuid NOT NULL,
	"staff_user_id" uuid,
	"kind" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_completions" (
	"work_order_id" uuid PRIMARY KEY NOT NULL,
	"summary" text NOT NULL,
	"materials" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signer_name" text,
	"signature_key" text,
	"time_on_site_minutes" integer,
	"follow_up_note" text,
	"completed_by_staff_user_id" uuid,
	"completed_by_name" text NOT NULL,
	"completed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"work_order_id" uuid NOT NULL,
	"author_staff_user_id" uuid,
	"author_name" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_users" DROP CONSTRAINT "staff_users_role_check";--> statement-breakpoint
ALTER TABLE "customer_photos" ADD COLUMN "work_order_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_photos" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "customer_photos" ADD COLUMN "idempotency_index" integer;--> statement-breakpoint
ALTER TABLE "equipment" ADD COLUMN "refrigerant" text;--> statement-breakpoint
ALTER TABLE "equipment" ADD COLUMN "tonnage" text;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "technician_id" uuid;--> statement-breakpoint
ALTER TABLE "tech_actions" ADD CONSTRAINT "tech_actions_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tech_actions" ADD CONSTRAINT "tech_actions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_completions" ADD CONSTRAINT "visit_completions_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_completions" ADD CONSTRAINT "visit_completions_completed_by_staff_user_id_staff_users_id_fk" FOREIGN KEY ("completed_by_staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_notes" ADD CONSTRAINT "work_order_notes_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_notes" ADD CONSTRAINT "work_order_notes_author_staff_user_id_staff_users_id_fk" FOREIGN KEY ("author_staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tech_actions_work_order_id_idx" ON "tech_actions" USING btree ("work_order_id","applied_at");--> statement-breakpoint
CREATE INDEX "work_order_notes_work_order_id_idx" ON "work_order_notes" USING btree ("work_order_id","created_at");--> statement-breakpoint
ALTER TABLE "customer_photos" ADD CONSTRAINT "customer_photos_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_photos_idempotency_key" ON "customer_photos" USING btree ("idempotency_key","idempotency_index") WHERE "customer_photos"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "customer_photos_work_order_id_idx" ON "customer_photos" USING btree ("work_order_id") WHERE "customer_photos"."work_order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_technician_id_key" ON "staff_users" USING btree ("technician_id") WHERE "staff_users"."technician_id" is not null;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_technician_link_check" CHECK ("staff_users"."role" = 'technician' or "staff_users"."technician_id" is null);--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_check" CHECK ("staff_users"."role" in ('admin', 'dispatcher', 'technician'));