-- Run-log paging at any depth: each entry gets its lift's ordinal `n` (1, 2, 3, ... in
-- sequence order), so page p of a lift's log is the range of n, read from an index,
-- instead of an offset that walks a million rows. `events_total` is the last ordinal.
alter table lifts add column events_total bigint not null default 0;
alter table lift_events add column n bigint;
update lift_events e set n = x.rn from (select id, row_number() over (partition by lift_id order by seq) as rn from lift_events) x where e.id = x.id;
alter table lift_events alter column n set not null;
create unique index lift_events_lift_n_idx on lift_events (lift_id, n);
update lifts l set events_total = coalesce((select max(n) from lift_events e where e.lift_id = l.id), 0);
-- Faults are rare: their own index makes the fault filter and fault counts cheap.
create index lift_events_lift_fault_idx on lift_events (lift_id, n) where fault;
