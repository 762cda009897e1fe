-- The run log partitioned by month of the entry's time (`ts`), so that retention drops a
-- whole month at once instead of deleting rows one by one (apps/server/src/modules/jobs/
-- retention.ts; docs/operations.md "Retention"). Same file on PGlite and PostgreSQL.
--
-- Idempotency stays exactly-once: a unique key of a partitioned table must hold the
-- partition key, so the key is (lift_id, seq, ts). A redelivered message carries the
-- identical payload, hence the same ts, lands in the same partition and meets the key;
-- a lift's seq never repeats otherwise (docs/protocol.md 4.1).

alter table lift_events rename to lift_events_unpartitioned;

create table lift_events (
  id bigint generated always as identity,
  lift_id uuid not null,
  seq bigint not null,
  ts timestamptz not null,
  code text not null,
  fault boolean not null default false,
  floor integer,
  received_at timestamptz not null default now(),
  n bigint not null
) partition by range (ts);

-- Entries of a month without its partition (a lift whose clock is far off, a month not
-- created ahead) land here; the retention job empties it of old entries row by row.
create table lift_events_default partition of lift_events default;

-- Adds the partition of the (UTC) month holding `month`, moving any entries of that month
-- out of the default partition first (PostgreSQL refuses the new partition otherwise).
-- Returns false when it exists already. Used here and by the retention job.
create or replace function lift_events_add_partition(month timestamptz) returns boolean
language plpgsql as $$
declare
  lo timestamptz := date_trunc('month', month at time zone 'UTC') at time zone 'UTC';
  hi timestamptz := (date_trunc('month', month at time zone 'UTC') + interval '1 month') at time zone 'UTC';
  part text := 'lift_events_' || to_char(month at time zone 'UTC', 'YYYY_MM');
begin
  if to_regclass(part) is not null then
    return false;
  end if;
  if exists (select 1 from lift_events_default where ts >= lo and ts < hi) then
    execute format('create table %I (like lift_events including defaults)', part);
    execute format('with moved as (delete from lift_events_default where ts >= %L and ts < %L returning *) insert into %I select * from moved', lo, hi, part);
    execute format('alter table lift_events attach partition %I for values from (%L) to (%L)', part, lo, hi);
  else
    execute format('create table %I partition of lift_events for values from (%L) to (%L)', part, lo, hi);
  end if;
  return true;
end $$;

-- A partition for every month that holds entries (from ten years back; older ones, and
-- entries dated in the future, stay in the default partition), this month and the next two.
select lift_events_add_partition(m)
  from (select distinct date_trunc('month', ts at time zone 'UTC') at time zone 'UTC' as m from lift_events_unpartitioned
         where ts >= now() - interval '10 years' and ts < date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'
        union
        select date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' + make_interval(months => k) from generate_series(0, 2) as k) as months
 order by m;

-- Every entry, with its id: the rows are moved before the keys and indexes are built.
insert into lift_events (id, lift_id, seq, ts, code, fault, floor, received_at, n) overriding system value
select id, lift_id, seq, ts, code, fault, floor, received_at, n from lift_events_unpartitioned;
select setval(pg_get_serial_sequence('lift_events', 'id'), coalesce((select max(id) from lift_events_unpartitioned), 0) + 1, false);
drop table lift_events_unpartitioned;

alter table lift_events add constraint lift_events_pkey primary key (id, ts);
-- Ingest's `on conflict (lift_id, seq, ts) do nothing` (modules/ingest/store.ts).
alter table lift_events add constraint lift_events_lift_seq_key unique (lift_id, seq, ts);
alter table lift_events add constraint lift_events_lift_id_fkey foreign key (lift_id) references lifts(id) on delete cascade;
create index lift_events_lift_ts_idx on lift_events (lift_id, ts desc, id desc);
create index lift_events_fault_ts_idx on lift_events (ts desc) where fault;
create index lift_events_ts_idx on lift_events (ts desc);
-- Run-log pages by ordinal. Unique before; a partitioned table's unique key would have to
-- hold ts. The ordinals stay dense: ingest numbers them with the lift's row locked.
create index lift_events_lift_n_idx on lift_events (lift_id, n);
create index lift_events_lift_fault_idx on lift_events (lift_id, n) where fault;
