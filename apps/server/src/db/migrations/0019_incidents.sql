-- Incidents and maintenance windows (docs/service.md).
--
-- An incident is opened by an alarm (the alert kinds: fault, help, offline, ...) or by a
-- person (cause 'manual'). Its cause is not checked here: the causes are the alert kinds
-- plus 'manual' (packages/protocol api/incidents.ts), and alert kinds grow with migrations
-- of their own. States and the transitions between them are the protocol's one table.
create table incidents (
  id bigint generated always as identity primary key,
  lift_id uuid not null references lifts(id) on delete cascade,
  cause text not null,
  code text,
  title text,
  priority text not null check (priority in ('critical', 'high', 'normal', 'low')),
  state text not null default 'open' check (state in ('open', 'acknowledged', 'enRoute', 'onSite', 'resolved', 'closed', 'cancelled')),
  -- The alert that opened it: repeats reopen this one instead of raising another.
  alert_id bigint references alerts(id) on delete set null,
  assignee_id uuid references users(id) on delete set null,
  assignee_name text,
  opened_at timestamptz not null default now(),
  -- Null: the system opened it (an alarm).
  opened_by uuid references users(id) on delete set null,
  opened_by_name text,
  repeats integer not null default 0,
  last_repeat_at timestamptz,
  state_changed_at timestamptz not null default now(),
  -- Resolved or cancelled: the end of the lift's events shown with it.
  ended_at timestamptz,
  root_cause text,
  resolution_text text,
  parts_used jsonb not null default '[]'::jsonb
);
-- Alarm hygiene: one active incident per lift, cause and code; a repeat attaches to it.
-- People may open several manual incidents on a lift (different things they saw).
create unique index incidents_active_key on incidents (lift_id, cause, coalesce(code, ''))
  where cause <> 'manual' and state in ('open', 'acknowledged', 'enRoute', 'onSite');
create index incidents_opened_idx on incidents (opened_at desc, id desc);
create index incidents_lift_idx on incidents (lift_id, opened_at desc);
create index incidents_alert_idx on incidents (alert_id) where alert_id is not null;

-- Every step: a change of state (from null: opened) or of assignee (from = to), who and when.
create table incident_steps (
  id bigint generated always as identity primary key,
  incident_id bigint not null references incidents(id) on delete cascade,
  from_state text,
  to_state text not null,
  actor_id uuid references users(id) on delete set null,
  actor_name text,
  at timestamptz not null default now(),
  note text,
  assignee_name text
);
create index incident_steps_incident_idx on incident_steps (incident_id, id);

create table incident_notes (
  id bigint generated always as identity primary key,
  incident_id bigint not null references incidents(id) on delete cascade,
  author_id uuid references users(id) on delete set null,
  author_name text not null,
  at timestamptz not null default now(),
  text text not null
);
create index incident_notes_incident_idx on incident_notes (incident_id, id);

-- A maintenance window: its lifts raise no alerts and open no incidents while it runs.
-- A site's window is one window over several lifts (declared at once, one id); there is
-- no organization-wide window: the organization's lifts are named in the declaration.
-- Ending early moves ends_at to the moment it was ended. The run log gets MAINT_ON at the
-- start and MAINT_OFF at the end of each lift (start_logged / end_logged: written already).
create table maintenance_windows (
  id bigint generated always as identity primary key,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  reason text not null,
  declared_by uuid references users(id) on delete set null,
  declared_by_name text not null,
  declared_at timestamptz not null default now(),
  ended_by uuid references users(id) on delete set null,
  ended_by_name text,
  start_logged boolean not null default false,
  end_logged boolean not null default false,
  check (ends_at > starts_at)
);
create index maintenance_windows_due_idx on maintenance_windows (starts_at, ends_at) where not end_logged;

create table maintenance_window_lifts (
  window_id bigint not null references maintenance_windows(id) on delete cascade,
  lift_id uuid not null references lifts(id) on delete cascade,
  primary key (window_id, lift_id)
);
create index maintenance_window_lifts_lift_idx on maintenance_window_lifts (lift_id);

-- The new permission `incident` for the built-in roles of databases seeded before it
-- (a fresh database gets them from the seed), and the built-in technician role comes
-- with the next start's seed. Roles that hold an `incident` entry already are left alone.
update roles r
   set permissions = r.permissions || jsonb_build_array(jsonb_build_object(
         'permissionId', 'incident',
         'actions', case r.name
                      when 'administrator' then '["add","delete","edit","query","get","enable","disable","import","export"]'::jsonb
                      when 'viewer' then '["query","get"]'::jsonb
                      else '["query","get","add","edit"]'::jsonb
                    end,
         'scope', case r.name when 'administrator' then 'all' else 'served' end))
 where r.built_in
   and r.name in ('administrator', 'manufacturerEngineer', 'operator', 'viewer')
   and not exists (select 1 from jsonb_array_elements(r.permissions) e where e->>'permissionId' = 'incident');
