ALTER TABLE "estimate_requests" ADD COLUMN "responded_at" timestamp with time zone;--> statement-breakpoint
-- Leads answered before the column existed: their last change is the best record of the answer.
UPDATE "estimate_requests" SET "responded_at" = "updated_at" WHERE "status" <> 'pending' OR "workflow_stage" IS NOT NULL;
