-- Fault, help and offline alerts; who is told about each, by mail and in the app.
alter table lifts add column help_signal boolean not null default false;
alter table lifts add column voltage real;

create table alerts (
  id bigint generated always as identity primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  kind text not null check (kind in ('fault', 'help', 'offline')),
  code text,
  raised_at timestamptz not null default now(),
  cleared_at timestamptz,
  acknowledged_at timestamptz,
  acknowledged_by uuid,
  acknowledged_by_name text
);
-- At most one open alert per lift, kind and code.
create unique index alerts_open_key on alerts (lift_id, kind, coalesce(code, '')) where acknowledged_at is null and cleared_at is null;
create index alerts_raised_idx on alerts (raised_at desc);
create index alerts_lift_idx on alerts (lift_id, raised_at desc);

create table alert_deliveries (
  alert_id bigint not null references alerts(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  due_at timestamptz not null default now(),
  mail boolean not null default false,
  mailed_at timestamptz,
  read_at timestamptz,
  primary key (alert_id, user_id)
);
create index alert_deliveries_user_idx on alert_deliveries (user_id, due_at desc);
create index alert_deliveries_mail_idx on alert_deliveries (due_at) where mail and mailed_at is null;

-- The fleet dashboard's recent events across many lifts.
create index lift_events_ts_idx on lift_events (ts desc);
create index lifts_attention_idx on lifts (active_fault) where active_fault is not null;
