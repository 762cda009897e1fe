-- Entries the retention job removed from a lift's run log. A lift's entries are numbered
-- 1..events_total as they arrive (0006); retention takes the oldest away, so the run log
-- holds events_total - events_retired of them, and the page counts say so.
alter table lifts add column if not exists events_retired bigint not null default 0;
