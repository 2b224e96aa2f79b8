-- A customer's "C" (confirm) by text is for one appointment: when the visit moves to another day
-- or time, the confirmation no longer holds (issue 18). BEFORE UPDATE, so every path that moves a
-- work order (dispatcher form, calendar drag, chat or online booking) clears it in the same row write.
CREATE FUNCTION work_orders_clear_customer_confirmation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.customer_confirmed_at := NULL;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER work_orders_customer_confirmation_follows_visit BEFORE UPDATE ON work_orders
  FOR EACH ROW WHEN (
    OLD.customer_confirmed_at IS NOT NULL AND (
      NEW.scheduled_date IS DISTINCT FROM OLD.scheduled_date
      OR NEW.scheduled_start_time IS DISTINCT FROM OLD.scheduled_start_time
      OR NEW.scheduled_end_time IS DISTINCT FROM OLD.scheduled_end_time
    )
  ) EXECUTE FUNCTION work_orders_clear_customer_confirmation();
