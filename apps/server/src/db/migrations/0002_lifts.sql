-- Lifts on the wire: credentials, live state, run log, commands, configuration history,
-- daily statistics and status samples.
alter table lifts
  add column iot_secret_hash text,
  add column iot_issued_at timestamptz,
  add column iot_info jsonb not null default '{}'::jsonb,
  add column online boolean not null default false,
  add column presence_session bigint not null default 0,
  add column online_since timestamptz,
  add column last_seen_at timestamptz,
  add column status jsonb,
  add column status_seq bigint not null default 0,
  add column status_at timestamptz,
  add column mode text,
  add column floor integer,
  add column active_fault text,
  add column config jsonb,
  add column config_version integer not null default 0,
  add column config_seq bigint not null default 0,
  add column config_at timestamptz,
  add column online_ms_total bigint not null default 0,
  add column trips_total bigint not null default 0;
create index lifts_device_no_idx on lifts (device_no);
create index lifts_online_idx on lifts (online, last_seen_at);
create index lifts_kind_idx on lifts (kind);

-- The run log: one row per event a lift reports; (lift, seq) makes ingest idempotent.
create table lift_events (
  id bigint generated always as identity primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  seq bigint not null,
  ts timestamptz not null,
  code text not null,
  fault boolean not null default false,
  floor integer,
  received_at timestamptz not null default now(),
  unique (lift_id, seq)
);
create index lift_events_lift_ts_idx on lift_events (lift_id, ts desc, id desc);
create index lift_events_fault_ts_idx on lift_events (ts desc) where fault;

create table lift_commands (
  id text primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  kind text not null default 'cmd' check (kind in ('cmd', 'config/set', 'config/get')),
  name text not null,
  args jsonb not null default '{}'::jsonb,
  state text not null,
  reason text,
  issues jsonb,
  user_id uuid,
  username text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index lift_commands_lift_idx on lift_commands (lift_id, created_at desc);

create table lift_config_log (
  id bigint generated always as identity primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  ts timestamptz not null default now(),
  user_id uuid,
  username text,
  source text not null,
  command_id text,
  version integer,
  before jsonb,
  after jsonb,
  result text not null
);
create index lift_config_log_lift_idx on lift_config_log (lift_id, ts desc);

-- Per lift and UTC day: seconds online and trips (a trip is a start up or start down).
create table lift_daily_stats (
  lift_id uuid not null references lifts(id) on delete cascade,
  day date not null,
  online_ms bigint not null default 0,
  trips integer not null default 0,
  primary key (lift_id, day)
);
create index lift_daily_stats_day_idx on lift_daily_stats (day);

-- Voltage and load over time, at most one sample a minute per lift, for the charts.
create table lift_samples (
  lift_id uuid not null references lifts(id) on delete cascade,
  ts timestamptz not null,
  voltage real not null,
  load_value real not null,
  primary key (lift_id, ts)
);

-- Counters of dropped uplink messages by reason, shared by all instances.
create table ingest_drops (
  reason text primary key,
  count bigint not null default 0
);
