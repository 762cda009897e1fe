-- Ingest updates the row of every lift that spoke, once per batch (last seen, run-log total,
-- trip counts). When no index covers a changed column and the page has room, PostgreSQL
-- updates the row in place (a HOT update: no new entries in any of the lifts' indexes).
-- These two indexes covered columns that change with every batch; the queries that used
-- them (the silence sweep, "top lifts") read a few thousand rows of one table and stay
-- fast without them (bench/queries.ts). Room in each page for the new row versions:
drop index if exists lifts_online_idx;
drop index if exists lifts_trips_30d_idx;
alter table lifts set (fillfactor = 70);
