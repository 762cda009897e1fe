-- Ingest updates a lift's condition state and its figures of the day with every status it
-- reports (modules/ingest/appliers/condition.ts). Both tables were filled to the brim, so
-- each update wrote the new row to another page with a new primary-key entry, and locked
-- the old row once more while it looked for room: about 600 bytes of WAL a status at
-- 20,000 lifts (`npm run bench:status-wal`). With room left in each page PostgreSQL updates
-- the row in place (HOT), as it does the lift rows (migration 0008). Pages written from now
-- on keep the room; a full page gets it as its rows move out.
alter table lift_condition_state set (fillfactor = 70);
alter table lift_condition_daily set (fillfactor = 70);
