CREATE TABLE "booking_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"online_booking_enabled" boolean NOT NULL,
	"arrival_windows" jsonb NOT NULL,
	"travel_buffer_minutes" integer NOT NULL,
	"service_area_zips" text[] NOT NULL,
	"cancel_cutoff_hours" integer NOT NULL,
	"service_types" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_settings_single_row_check" CHECK ("booking_settings"."id" = 1),
	CONSTRAINT "booking_settings_buffer_check" CHECK ("booking_settings"."travel_buffer_minutes" between 0 and 240),
	CONSTRAINT "booking_settings_cutoff_check" CHECK ("booking_settings"."cancel_cutoff_hours" between 0 and 168)
);
--> statement-breakpoint
CREATE TABLE "technician_time_off" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"technician_id" uuid NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"start_time" time,
	"end_time" time,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "technician_time_off_dates_check" CHECK ("technician_time_off"."ends_on" >= "technician_time_off"."starts_on"),
	CONSTRAINT "technician_time_off_part_day_check" CHECK (("technician_time_off"."start_time" is null and "technician_time_off"."end_time" is null) or ("technician_time_off"."start_time" is not null and "technician_time_off"."end_time" > "technician_time_off"."start_time" and "technician_time_off"."starts_on" = "technician_time_off"."ends_on"))
);
--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "working_hours" jsonb DEFAULT '{"1":[{"start":"08:00","end":"17:00"}],"2":[{"start":"08:00","end":"17:00"}],"3":[{"start":"08:00","end":"17:00"}],"4":[{"start":"08:00","end":"17:00"}],"5":[{"start":"08:00","end":"17:00"}]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "technicians" ADD COLUMN "service_types" text[] DEFAULT '{repair,maintenance,installation,inspection,ductwork}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "technician_time_off" ADD CONSTRAINT "technician_time_off_technician_id_technicians_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."technicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "technician_time_off_technician_ends_idx" ON "technician_time_off" USING btree ("technician_id","ends_on");