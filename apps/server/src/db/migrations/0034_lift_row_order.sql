-- Every status a lift reports updates its row: the time it was last heard, the status's
-- sequence and time, and (only when it changed) the snapshot. PostgreSQL writes an update
-- that stays on its page (HOT, migration 0008) to the WAL as the new row's bytes from the
-- first changed byte to the last. The status snapshot (about a kilobyte) and the
-- configuration lay between the last-heard time and the status's sequence, so each report
-- wrote them to the WAL again even when it repeated the stored snapshot. Moved to the end of
-- the row, the lift row's update for a repeated status writes about 520 bytes of WAL
-- instead of about 1,540 (docs/operations.md 7.1). The snapshot goes last: a changed status then spans up to it
-- without the configuration, which changes rarely. Each value is moved in the same update
-- that clears the old column, so no row is ever twice as wide.
alter table lifts rename column status to status_before_0034;
alter table lifts rename column config to config_before_0034;
alter table lifts add column config jsonb, add column status jsonb;
update lifts set config = config_before_0034, status = status_before_0034, config_before_0034 = null, status_before_0034 = null
 where config_before_0034 is not null or status_before_0034 is not null;
alter table lifts drop column config_before_0034, drop column status_before_0034;
