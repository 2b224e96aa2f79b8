-- Live updates (issue 7): every committed change to a table the back office shows is published on
-- the NOTIFY channel 'hvac_changes' (shared/live-events.ts) as {"topic": <table>, "action": <op>}.
-- Statement-level triggers: a bulk insert of 100,000 rows publishes once, not 100,000 times, and
-- PostgreSQL folds identical payloads of one transaction into one notification. NOTIFY is
-- delivered on commit only, so a rolled-back change publishes nothing.
CREATE OR REPLACE FUNCTION notify_live_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hvac_changes', json_build_object('topic', TG_TABLE_NAME, 'action', lower(TG_OP))::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER estimate_requests_live_change AFTER INSERT OR UPDATE OR DELETE ON estimate_requests
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER ai_leads_live_change AFTER INSERT OR UPDATE OR DELETE ON ai_leads
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER work_orders_live_change AFTER INSERT OR UPDATE OR DELETE ON work_orders
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER admin_notifications_live_change AFTER INSERT OR UPDATE OR DELETE ON admin_notifications
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER customers_live_change AFTER INSERT OR UPDATE OR DELETE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
