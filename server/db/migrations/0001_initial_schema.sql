CREATE SEQUENCE "public"."work_order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 10001 CACHE 1;--> statement-breakpoint
CREATE TABLE "admin_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" text NOT NULL,
	"customer_id" uuid,
	"user_message" text NOT NULL,
	"ai_response" text NOT NULL,
	"intent" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid,
	"conversation_id" text NOT NULL,
	"lead_score" integer NOT NULL,
	"urgency" text NOT NULL,
	"service_type" text,
	"status" text DEFAULT 'new' NOT NULL,
	"source" text DEFAULT 'ai_chat' NOT NULL,
	"notes" text,
	"work_order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_leads_lead_score_check" CHECK ("ai_leads"."lead_score" between 1 and 10),
	CONSTRAINT "ai_leads_status_check" CHECK ("ai_leads"."status" in ('new', 'converted'))
);
--> statement-breakpoint
CREATE TABLE "customer_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"object_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer,
	"height" integer,
	"size_bytes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"address" text NOT NULL,
	"city" text DEFAULT 'Bluffton' NOT NULL,
	"state" text DEFAULT 'SC' NOT NULL,
	"zip" text,
	"type" text DEFAULT 'residential' NOT NULL,
	"notes" text,
	"has_indoor_unit" boolean DEFAULT false NOT NULL,
	"has_outdoor_unit" boolean DEFAULT false NOT NULL,
	"unit_brand" text,
	"unit_model" text,
	"unit_serial" text,
	"install_date" date,
	"refrigerant_type" text,
	"tonnage" text,
	"latitude" double precision,
	"longitude" double precision,
	"geocoding_status" text DEFAULT 'pending' NOT NULL,
	"geocoded_at" timestamp with time zone,
	"formatted_address" text,
	"geocoding_error" text,
	"geocoding_accuracy" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_type_check" CHECK ("customers"."type" in ('residential', 'commercial')),
	CONSTRAINT "customers_geocoding_status_check" CHECK ("customers"."geocoding_status" in ('pending', 'success', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "equipment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"equipment_type" text NOT NULL,
	"location" text,
	"brand" text,
	"model" text,
	"serial_number" text,
	"warranty_status" text,
	"install_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "estimate_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address" text NOT NULL,
	"service_type" text NOT NULL,
	"description" text,
	"preferred_date" date,
	"preferred_time" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"source" text DEFAULT 'website' NOT NULL,
	"workflow_stage" text,
	"customer_id" uuid,
	"work_order_id" uuid,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "estimate_requests_service_type_check" CHECK ("estimate_requests"."service_type" in ('ac-installation', 'ac-repair', 'heating-installation', 'heating-repair', 'maintenance', 'ductwork', 'other')),
	CONSTRAINT "estimate_requests_preferred_time_check" CHECK ("estimate_requests"."preferred_time" is null or "estimate_requests"."preferred_time" in ('morning', 'afternoon', 'evening')),
	CONSTRAINT "estimate_requests_status_check" CHECK ("estimate_requests"."status" in ('pending', 'contacted', 'quoted', 'scheduled', 'completed', 'cancelled')),
	CONSTRAINT "estimate_requests_priority_check" CHECK ("estimate_requests"."priority" in ('urgent', 'normal')),
	CONSTRAINT "estimate_requests_source_check" CHECK ("estimate_requests"."source" in ('website', 'ai_chat', 'phone', 'walk_in', 'angies_list', 'home_rely', 'manual')),
	CONSTRAINT "estimate_requests_workflow_stage_check" CHECK ("estimate_requests"."workflow_stage" is null or "estimate_requests"."workflow_stage" in ('converted_to_work_order'))
);
--> statement-breakpoint
CREATE TABLE "inspection_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"work_order_id" uuid NOT NULL,
	"mca" numeric(6, 1),
	"mocp" numeric(6, 1),
	"temp_split" numeric(5, 1),
	"static_pressure" numeric(5, 2),
	"inspection_items" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"user_agent" text,
	"ip_address" text
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'admin' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_users_email_lowercase" CHECK ("staff_users"."email" = lower("staff_users"."email")),
	CONSTRAINT "staff_users_role_check" CHECK ("staff_users"."role" in ('admin'))
);
--> statement-breakpoint
CREATE TABLE "technicians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT '#0d9488' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "technicians_color_check" CHECK ("technicians"."color" ~ '^#[0-9a-fA-F]{6}$')
);
--> statement-breakpoint
CREATE TABLE "work_order_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"work_order_id" uuid NOT NULL,
	"task_name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"time_spent_minutes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"work_order_number" text DEFAULT 'WO-' || nextval('work_order_number_seq') NOT NULL,
	"customer_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"notes" text,
	"service_type" text DEFAULT 'repair' NOT NULL,
	"service_date" date NOT NULL,
	"time_preference" text DEFAULT 'morning' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"technician_id" uuid,
	"equipment_id" uuid,
	"estimate_request_id" uuid,
	"scheduled_date" timestamp with time zone,
	"scheduled_start_time" time,
	"scheduled_end_time" time,
	"estimated_duration" numeric(5, 2),
	"special_instructions" text,
	"actual_start_time" timestamp with time zone,
	"actual_end_time" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_orders_service_type_check" CHECK ("work_orders"."service_type" in ('repair', 'maintenance', 'installation', 'inspection', 'ductwork')),
	CONSTRAINT "work_orders_time_preference_check" CHECK ("work_orders"."time_preference" in ('morning', 'afternoon', 'anytime')),
	CONSTRAINT "work_orders_priority_check" CHECK ("work_orders"."priority" in ('low', 'normal', 'high', 'emergency')),
	CONSTRAINT "work_orders_status_check" CHECK ("work_orders"."status" in ('pending', 'scheduled', 'in-progress', 'completed', 'cancelled')),
	CONSTRAINT "work_orders_scheduled_times_check" CHECK ("work_orders"."scheduled_start_time" is null or "work_orders"."scheduled_end_time" is null or "work_orders"."scheduled_end_time" > "work_orders"."scheduled_start_time")
);
--> statement-breakpoint
ALTER TABLE "ai_conversations" ADD CONSTRAINT "ai_conversations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_leads" ADD CONSTRAINT "ai_leads_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_leads" ADD CONSTRAINT "ai_leads_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_photos" ADD CONSTRAINT "customer_photos_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimate_requests" ADD CONSTRAINT "estimate_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_reports" ADD CONSTRAINT "inspection_reports_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_tasks" ADD CONSTRAINT "work_order_tasks_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_estimate_request_id_estimate_requests_id_fk" FOREIGN KEY ("estimate_request_id") REFERENCES "public"."estimate_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_notifications_created_at_idx" ON "admin_notifications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ai_conversations_created_at_idx" ON "ai_conversations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ai_conversations_conversation_id_idx" ON "ai_conversations" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_leads_created_at_idx" ON "ai_leads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "customer_photos_customer_id_idx" ON "customer_photos" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_photos_object_key_key" ON "customer_photos" USING btree ("object_key");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "customers_name_trgm_idx" ON "customers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_trgm_idx" ON "customers" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_address_trgm_idx" ON "customers" USING gin ("address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_geocoding_pending_idx" ON "customers" USING btree ("created_at") WHERE "customers"."latitude" is null;--> statement-breakpoint
CREATE INDEX "customers_property_idx" ON "customers" USING btree ("address","city","state");--> statement-breakpoint
CREATE INDEX "equipment_customer_id_idx" ON "equipment" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "estimate_requests_created_at_idx" ON "estimate_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "estimate_requests_status_idx" ON "estimate_requests" USING btree ("status","priority");--> statement-breakpoint
CREATE UNIQUE INDEX "estimate_requests_idempotency_key_key" ON "estimate_requests" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "inspection_reports_work_order_id_idx" ON "inspection_reports" USING btree ("work_order_id","created_at");--> statement-breakpoint
CREATE INDEX "login_attempts_email_idx" ON "login_attempts" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "login_attempts_ip_idx" ON "login_attempts" USING btree ("ip_address","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_staff_user_id_idx" ON "sessions" USING btree ("staff_user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_email_key" ON "staff_users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "work_order_tasks_work_order_id_idx" ON "work_order_tasks" USING btree ("work_order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "work_orders_work_order_number_key" ON "work_orders" USING btree ("work_order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "work_orders_idempotency_key_key" ON "work_orders" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "work_orders_service_date_idx" ON "work_orders" USING btree ("service_date","scheduled_start_time");--> statement-breakpoint
CREATE INDEX "work_orders_status_service_date_idx" ON "work_orders" USING btree ("status","service_date");--> statement-breakpoint
CREATE INDEX "work_orders_customer_id_idx" ON "work_orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "work_orders_technician_id_idx" ON "work_orders" USING btree ("technician_id","service_date");--> statement-breakpoint
CREATE INDEX "work_orders_completed_at_idx" ON "work_orders" USING btree ("completed_at");--> statement-breakpoint
CREATE INDEX "work_orders_title_trgm_idx" ON "work_orders" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "work_orders_description_trgm_idx" ON "work_orders" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "work_orders_number_trgm_idx" ON "work_orders" USING gin ("work_order_number" gin_trgm_ops);