-- A fleet in service reports its status every few seconds, and most reports repeat the
-- last one. Ingest writes the snapshot (about a kilobyte) only when it differs from the
-- stored one, which it tells by this hash of the snapshot as the lift sent it; ingest is
-- the only writer of both columns (docs/operations.md 7.1).
alter table lifts add column status_hash text;
