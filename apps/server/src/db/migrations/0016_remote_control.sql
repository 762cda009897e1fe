-- Safe remote control (docs/remote-control.md).

-- One row per lift that has ever had a lease or local use, kept apart from `lifts` (whose row
-- ingest locks and rewrites with every batch). `epoch` counts the leases granted on the lift
-- (the fencing token the lift checks); the holder columns are null when nobody holds it, and
-- a lease past `expires_at` counts as free. `local_until`: after local use, no remote lease
-- before then.
create table if not exists lift_leases (
  lift_id uuid primary key references lifts(id) on delete cascade,
  epoch integer not null default 0,
  holder_id uuid,
  holder_name text,
  acquired_at timestamptz,
  expires_at timestamptz,
  local_until timestamptz
);

-- A command's click (idempotency key, one per user), the lease it ran under, the approval that
-- let it run, and when it left the cloud: `sent_at` stays null while the command waits in its
-- cancel window, and the send claims the row only if it is still unsent and not cancelled.
alter table lift_commands add column if not exists idempotency_key text;
alter table lift_commands add column if not exists lease_epoch integer;
alter table lift_commands add column if not exists approval_id uuid;
alter table lift_commands add column if not exists sent_at timestamptz;
create unique index if not exists lift_commands_idempotency_idx on lift_commands (user_id, idempotency_key) where idempotency_key is not null;

-- The command classes an organization puts under two-person approval.
alter table organizations add column if not exists approval_classes jsonb not null default '["aging","deformation","selfLearning"]'::jsonb;
