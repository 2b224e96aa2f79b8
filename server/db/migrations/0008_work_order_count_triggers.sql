-- Keeps work_order_status_counts equal to "select status, count(*) from work_orders group by status".
-- Statement-level triggers with transition tables: a bulk insert (the demo seed) costs one upsert
-- per status, not one per row. Statuses whose count does not change are not touched, so an update
-- that leaves every status as it was takes no lock on the counts.
CREATE FUNCTION work_order_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM work_order_status_counts;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO work_order_status_counts (status, count)
    SELECT status, count(*) FROM new_rows GROUP BY status
    ON CONFLICT (status) DO UPDATE SET count = work_order_status_counts.count + excluded.count;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE work_order_status_counts AS counts SET count = counts.count - removed.n
    FROM (SELECT status, count(*) AS n FROM old_rows GROUP BY status) AS removed
    WHERE counts.status = removed.status;
  ELSE
    INSERT INTO work_order_status_counts (status, count)
    SELECT status, sum(delta) FROM (
      SELECT status, 1 AS delta FROM new_rows
      UNION ALL
      SELECT status, -1 AS delta FROM old_rows
    ) AS moves
    GROUP BY status
    HAVING sum(delta) <> 0
    ON CONFLICT (status) DO UPDATE SET count = work_order_status_counts.count + excluded.count;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER work_orders_count_insert AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER work_orders_count_update AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER work_orders_count_delete AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION work_order_status_counts_apply();
--> statement-breakpoint
CREATE TRIGGER work_orders_count_truncate AFTER TRUNCATE ON work_orders
  FOR EACH STATEMENT EXECUTE FUNCTION work_order_status_counts_apply();
--> statement-breakpoint
INSERT INTO work_order_status_counts (status, count)
SELECT status, count(*) FROM work_orders GROUP BY status
ON CONFLICT (status) DO UPDATE SET count = excluded.count;
