-- Group configuration (docs/group-config.md): one change of configuration fields sent to many
-- lifts. A send records who, when, the selection and the changes as reviewed; the idempotency
-- key makes a repeated click the same send (one per user).
create table group_config_sends (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references users(id) on delete set null,
  username text not null,
  idempotency_key text not null,
  selection jsonb not null,
  changes jsonb not null,
  created_at timestamptz not null default now()
);
create unique index group_config_sends_idempotency_idx on group_config_sends (user_id, idempotency_key);
create index group_config_sends_user_idx on group_config_sends (user_id, created_at desc);

-- Each lift of a send: the version the review saw, its config/set command (by the per-lift
-- idempotency key the command is recorded with, so the lift's answer finds this row in the
-- ingest transaction that stores it), and its state: pending, sent, done, refused, offline or
-- skipped, with the reason and when the lift answered. Nothing moves a row back, nothing
-- resends an offline one.
create table group_config_lifts (
  group_id uuid not null references group_config_sends(id) on delete cascade,
  lift_id uuid not null references lifts(id) on delete cascade,
  version integer not null,
  command_key text not null unique,
  command_id text,
  state text not null check (state in ('pending', 'sent', 'done', 'refused', 'offline', 'skipped')),
  reason text,
  answered_at timestamptz,
  primary key (group_id, lift_id)
);
create index group_config_lifts_lift_idx on group_config_lifts (lift_id);
