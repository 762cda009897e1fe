-- The alert job (every 15 s, modules/alerts/job.ts) looks for provisioned lifts offline past
-- the alert threshold and for lifts whose alarm device missed its self-test. Both read every
-- lift row: 46 to 60 ms each at 20,000 lifts on the embedded database, 170 to 200 ms while
-- the fleet reports, and the embedded database's one session is held meanwhile (a command
-- waits behind them). These partial indexes hold only the few rows either query wants: 1 to
-- 2 ms. Neither names a column a status report changes (the last-seen time, the status), so
-- the lift row's update for each report stays in place (HOT, migration 0008): 39,996 of
-- 40,000 in the measurement (docs/operations.md 10.4).
create index lifts_offline_provisioned_idx on lifts (id) where not online and iot_secret_hash is not null;
create index lifts_alarm_test_due_idx on lifts ((coalesce(alarm_last_passed_at, alarm_watch_from))) where iot_secret_hash is not null;
