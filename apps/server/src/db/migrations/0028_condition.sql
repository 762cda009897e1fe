-- Condition-based maintenance (issue 17, docs/condition.md). Ingest keeps each lift's figures
-- per day as its statuses and run-log entries arrive (modules/ingest/appliers/condition.ts),
-- so the score job reads a few rows per lift and never the run log.

-- Per lift per UTC day: sums and counts, so a mean over any days is sum(x) / sum(n).
create table if not exists lift_condition_daily (
  lift_id uuid not null references lifts(id) on delete cascade,
  day date not null,
  charge_ratio_sum double precision not null default 0,  -- check value / charge value, statuses at a charging node
  charge_ratio_n integer not null default 0,
  charge_seconds_sum double precision not null default 0, -- completed charges (charging ended by a full battery, the lift standing)
  charge_n integer not null default 0,
  sag_sum double precision not null default 0,            -- voltage at rest before a trip minus the lowest during it
  sag_n integer not null default 0,
  trips integer not null default 0,                       -- trips measured from start to arrival
  overloads integer not null default 0,                   -- overloaded switching on
  flap_anomalies integer not null default 0,              -- flapNotInPlace switching on
  pedal_anomalies integer not null default 0,             -- pedalAntiCollision switching on
  faults integer not null default 0,                      -- fault entries (by code in lift_condition_faults)
  primary key (lift_id, day)
);

-- Trip durations per floor pair and day (from, to: the floors of the start and the arrival).
create table if not exists lift_condition_travel (
  lift_id uuid not null references lifts(id) on delete cascade,
  day date not null,
  from_floor smallint not null,
  to_floor smallint not null,
  trips integer not null default 0,
  seconds_sum double precision not null default 0,
  primary key (lift_id, day, from_floor, to_floor)
);

create table if not exists lift_condition_faults (
  lift_id uuid not null references lifts(id) on delete cascade,
  day date not null,
  code text not null,
  n integer not null default 0,
  primary key (lift_id, day, code)
);

-- What ingest remembers between messages of a lift: the last status applied (older ones
-- arriving late are ignored), the trip under way, the charge under way, the flags' last values.
create table if not exists lift_condition_state (
  lift_id uuid primary key references lifts(id) on delete cascade,
  status_seq bigint not null default 0,
  rest_voltage real,
  rest_floor smallint,
  trip_from smallint,
  trip_started_at timestamptz,
  trip_rest_voltage real,
  trip_min_voltage real,
  charging_since timestamptz,
  position integer,
  overloaded boolean not null default false,
  flap boolean not null default false,
  pedal boolean not null default false
);
-- the first day with a status: the lift's baseline weeks start here (added after the table
-- first shipped, so a database that already has it gets the column too)
alter table lift_condition_state add column if not exists first_day date;

-- The score of each lift per day (the job rewrites today's row on every run): the history.
create table if not exists lift_condition_scores (
  lift_id uuid not null references lifts(id) on delete cascade,
  day date not null,
  score smallint not null check (score between 0 and 100),
  factors jsonb not null,
  main_factor text,
  -- listed: below the threshold or fallen; then the proposed visit and how far it fell
  listed boolean not null default false,
  fell_by smallint,
  visit_on date,
  computed_at timestamptz not null default now(),
  primary key (lift_id, day)
);
create index if not exists lift_condition_scores_listed on lift_condition_scores (day, score) where listed;
