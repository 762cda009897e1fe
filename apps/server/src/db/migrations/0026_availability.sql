-- Availability and reliability per lift and UTC month (docs/insight.md, "Availability";
-- packages/protocol api/availability.ts). Ingest books the time between two changes of a
-- lift's availability state into these rows as it stores the lift's messages, so the report
-- reads at most one row per lift and month and never the run log.

-- The lift's availability state from what its row says (maintenance is not a state of the
-- row: it is the overlap with the lift's maintenance windows, taken off when time is booked).
-- The order is the protocol's: offline, faulted, stopped (emergency), locked, disabled, in service.
create function availability_state(online boolean, mode text, active_fault text) returns text
  language sql immutable as $$
  select case when not coalesce(online, false) then 'offline'
              when active_fault is not null then 'faulted'
              when mode = 'emergency' then 'stopped'
              when mode = 'lockout' then 'locked'
              when mode = 'disabled' then 'disabled'
              else 'inService' end
$$;

create table lift_availability_monthly (
  lift_id uuid not null references lifts(id) on delete cascade,
  -- The first day of the UTC month.
  month date not null,
  in_service_ms bigint not null default 0,
  faulted_ms bigint not null default 0,
  stopped_ms bigint not null default 0,
  locked_ms bigint not null default 0,
  disabled_ms bigint not null default 0,
  offline_ms bigint not null default 0,
  maintenance_ms bigint not null default 0,
  trips integer not null default 0,
  -- Transitions into `faulted` (an active fault appearing).
  failures integer not null default 0,
  -- Incidents opened in the month; acknowledged (first time) and resolved in the month, with
  -- the sums of their times from opening, for the means.
  incidents integer not null default 0,
  ack_count integer not null default 0,
  ack_ms_sum bigint not null default 0,
  restore_count integer not null default 0,
  restore_ms_sum bigint not null default 0,
  primary key (lift_id, month)
);
-- The report reads months of many lifts: by month first.
create index lift_availability_monthly_month_idx on lift_availability_monthly (month, lift_id);

-- The state the lift is in and since when: the open interval, booked at the next change
-- (or by the hourly job). Lifts that existed before start counting now.
alter table lifts
  add column avail_state text not null default 'offline'
    check (avail_state in ('inService', 'faulted', 'stopped', 'locked', 'disabled', 'offline')),
  add column avail_since timestamptz not null default now();
update lifts set avail_state = availability_state(online, mode, active_fault), avail_since = now();

-- The report's sites and a site's lifts: an organization's lifts by site (lifts.location->>'site',
-- trimmed; '' = no site), as the lift's operator or as its maker.
create index lifts_operator_site_idx on lifts (operator_org_id, (coalesce(trim(location->>'site'), '')));
create index lifts_maker_site_idx on lifts (manufacturer_org_id, (coalesce(trim(location->>'site'), '')));
