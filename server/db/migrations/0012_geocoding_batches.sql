CREATE TABLE "geocode_cache" (
	"provider" text NOT NULL,
	"address_key" text NOT NULL,
	"status" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"formatted_address" text,
	"accuracy" text,
	"warnings" text[] DEFAULT '{}'::text[] NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geocode_cache_pkey" PRIMARY KEY("provider","address_key"),
	CONSTRAINT "geocode_cache_status_check" CHECK ("geocode_cache"."status" in ('success', 'failed')),
	CONSTRAINT "geocode_cache_success_has_point" CHECK ("geocode_cache"."status" <> 'success' or ("geocode_cache"."latitude" is not null and "geocode_cache"."longitude" is not null))
);
--> statement-breakpoint
CREATE TABLE "geocoding_batch_items" (
	"batch_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text,
	"status" text,
	"latitude" double precision,
	"longitude" double precision,
	"formatted_address" text,
	"accuracy" text,
	"error" text,
	"warnings" text[] DEFAULT '{}'::text[] NOT NULL,
	"from_cache" boolean DEFAULT false NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "geocoding_batch_items_pkey" PRIMARY KEY("batch_id","position"),
	CONSTRAINT "geocoding_batch_items_status_check" CHECK ("geocoding_batch_items"."status" is null or "geocoding_batch_items"."status" in ('success', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "geocoding_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"provider" text NOT NULL,
	"retry_failed" boolean DEFAULT false NOT NULL,
	"total" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"message" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geocoding_batches_status_check" CHECK ("geocoding_batches"."status" in ('running', 'completed', 'interrupted')),
	CONSTRAINT "geocoding_batches_counts_check" CHECK ("geocoding_batches"."processed" = "geocoding_batches"."succeeded" + "geocoding_batches"."failed" and "geocoding_batches"."processed" <= "geocoding_batches"."total")
);
--> statement-breakpoint
ALTER TABLE "geocoding_batch_items" ADD CONSTRAINT "geocoding_batch_items_batch_id_geocoding_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."geocoding_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "geocoding_batches_one_running_idx" ON "geocoding_batches" USING btree ("status") WHERE "geocoding_batches"."status" = 'running';--> statement-breakpoint
CREATE INDEX "geocoding_batches_started_at_idx" ON "geocoding_batches" USING btree ("started_at");