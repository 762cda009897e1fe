-- Maintenance plans and visits (docs/service.md, "Maintenance plans and visits").

-- An organization's own checklist for a lift kind; a kind without one uses the built-in
-- checklist (packages/protocol api/maintenance.ts, DEFAULT_CHECKLISTS). `items` is the
-- protocol's checklist item list, checked by the server before it is stored.
create table maintenance_templates (
  org_id uuid not null references organizations(id) on delete cascade,
  kind text not null,
  items jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by uuid references users(id) on delete set null,
  updated_by_name text,
  primary key (org_id, kind)
);

-- A lift's plan: due every `interval_days` days and/or every `interval_trips` trips after the
-- last visit, whichever comes first. Without a visit, counting starts when the plan was set
-- (`since`, with the lift's trip counter then in `trips_at_since`).
create table maintenance_plans (
  lift_id uuid primary key references lifts(id) on delete cascade,
  interval_days integer check (interval_days > 0),
  interval_trips bigint check (interval_trips > 0),
  since timestamptz not null default now(),
  trips_at_since bigint not null default 0,
  updated_at timestamptz not null default now(),
  updated_by uuid references users(id) on delete set null,
  updated_by_name text,
  check (interval_days is not null or interval_trips is not null)
);

-- A visit: who, when, the checklist's answers (each item as it was, with its result), the
-- findings, the parts used, the incidents it closed, and the lift's trip counter when it was
-- recorded (trips since the visit are counted from it).
create table maintenance_visits (
  id bigint generated always as identity primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  technician_id uuid references users(id) on delete set null,
  technician_name text not null,
  started_at timestamptz not null,
  ended_at timestamptz not null,
  recorded_at timestamptz not null default now(),
  results jsonb not null,
  failed_items jsonb not null default '[]'::jsonb,
  findings text not null default '',
  parts_used jsonb not null default '[]'::jsonb,
  incident_ids jsonb not null default '[]'::jsonb,
  trips_at bigint not null,
  check (ended_at >= started_at)
);
create index maintenance_visits_lift_idx on maintenance_visits (lift_id, ended_at desc, id desc);

-- The weekly maintenance mail: when each user last got it. Claimed with an upsert that only
-- succeeds once per period, so two instances mail a user once.
create table maintenance_mail_marks (
  user_id uuid primary key references users(id) on delete cascade,
  sent_at timestamptz not null
);
