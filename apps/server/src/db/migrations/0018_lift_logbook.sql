-- The lift's logbook (docs/logbook.md): one ordered record per lift of what was done to it,
-- each entry carrying the SHA-256 of its fields and of the entry before, so an altered, removed
-- or reordered entry is found by the verify action.
--
-- Kept at least five years and never removed by the product: no retention or cleanup job
-- touches these tables, and the references to `lifts` have no cascade, so a lift with a
-- logbook cannot be deleted with it (lifts are never deleted by the product; run-log
-- retention only counts entries it retires, 0013).

-- Per lift: the last entry's seq and hash. An append locks this row for the rest of its
-- transaction, so two appends on the same lift, on any instances, chain one after the other.
create table if not exists lift_logbook_heads (
  lift_id uuid primary key references lifts(id),
  seq bigint not null default 0,
  hash text
);

create table if not exists lift_logbook (
  lift_id uuid not null references lifts(id),
  seq bigint not null,
  ts timestamptz not null,
  kind text not null check (kind in ('command', 'config', 'credential', 'lease', 'approval', 'incident', 'visit', 'firmware')),
  -- Who did it as they were named then; null for what the lift or the server did by itself.
  actor_id uuid,
  actor_name text,
  data jsonb not null,
  prev_hash text not null,
  hash text not null,
  primary key (lift_id, seq)
);
create index if not exists lift_logbook_kind_idx on lift_logbook (lift_id, kind, seq);
create index if not exists lift_logbook_ts_idx on lift_logbook (lift_id, ts);

-- Entries are only ever added. Someone with rights on the database can still disable this;
-- the hash chain is what finds such a change.
create or replace function lift_logbook_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'the lift logbook is append-only: entries are never changed or removed';
end;
$$;
drop trigger if exists lift_logbook_append_only on lift_logbook;
create trigger lift_logbook_append_only before update or delete on lift_logbook
  for each row execute function lift_logbook_append_only();
drop trigger if exists lift_logbook_no_truncate on lift_logbook;
create trigger lift_logbook_no_truncate before truncate on lift_logbook
  for each statement execute function lift_logbook_append_only();
