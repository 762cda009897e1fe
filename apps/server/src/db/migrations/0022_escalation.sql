-- Escalation (docs/service.md, "Escalation").
--
-- An organization's on-call list: the people asked in turn to acknowledge an incident on one
-- of its lifts (the lift's operator organization decides, or its maker's when it has none),
-- then the manager. `on_call` is the ordered list of user ids; a user who left the
-- organization, was disabled or lost the incident permission is skipped when their turn comes.
create table escalation_policies (
  org_id uuid primary key references organizations(id) on delete cascade,
  on_call jsonb not null default '[]'::jsonb,
  manager_id uuid references users(id) on delete set null,
  ack_minutes integer not null default 10 check (ack_minutes between 1 and 1440),
  -- {"critical": 2, ...}: another acknowledge time for incidents of these priorities.
  ack_minutes_by_priority jsonb not null default '{}'::jsonb,
  -- The policy reaches the incidents opened since it was first saved (not the backlog).
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  updated_by uuid references users(id) on delete set null,
  updated_by_name text
);

-- Where an incident's escalation stands: `step` is the last step asked (-1: nobody yet;
-- 0..n-1 the on-call list, n the manager); `next_due_at` when the next one is asked if the
-- incident is still open then (null: nobody left, or it was acknowledged or ended).
create table incident_escalations (
  incident_id bigint primary key references incidents(id) on delete cascade,
  org_id uuid not null references organizations(id) on delete cascade,
  step integer not null default -1,
  next_due_at timestamptz,
  started_at timestamptz not null default now(),
  -- Set once the incident left `open` and those asked were told who took it (or that it was
  -- cancelled: then nobody is told).
  ended_at timestamptz
);
create index incident_escalations_due_idx on incident_escalations (next_due_at) where next_due_at is not null;
create index incident_escalations_running_idx on incident_escalations (incident_id) where ended_at is null;

-- In-app notifications about incidents (the header's bell, beside the alert notifications of
-- alert_deliveries): `escalated` asks the user to acknowledge, `taken` tells them who did.
-- Each one is also mailed (`mailed_at` once sent; a user without an address gets none).
create table incident_notifications (
  id bigint generated always as identity primary key,
  user_id uuid not null references users(id) on delete cascade,
  incident_id bigint not null references incidents(id) on delete cascade,
  kind text not null check (kind in ('escalated', 'taken')),
  step integer,
  manager boolean not null default false,
  actor_name text,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  mailed_at timestamptz
);
-- One escalation notice per user and incident, one "taken" notice per user and incident.
create unique index incident_notifications_once on incident_notifications (incident_id, user_id, kind);
create index incident_notifications_user_idx on incident_notifications (user_id, created_at desc);
create index incident_notifications_mail_idx on incident_notifications (created_at) where mailed_at is null;

-- The escalation steps in the incident's timeline: a step `from = to` with `escalated_to`
-- names who was asked (and whether they are the manager).
alter table incident_steps add column escalated_to text;
alter table incident_steps add column escalated_manager boolean not null default false;
