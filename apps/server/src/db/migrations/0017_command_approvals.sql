-- Two-person approval (docs/remote-control.md): a user asks for one command of a class their
-- organization puts under approval; another user approves (the command runs at once under the
-- requester's lease), rejects, or the requester withdraws. A request left pending past
-- `expires_at` counts as expired (the queries say so, and write it when they meet one).
-- Every decision is one `update ... where state = 'pending'`, so two approvers cannot both run it.
-- The names are kept as they were (the audit's words); the ids have no foreign key, like
-- `lift_commands.user_id`, so a request outlives its users.
create table if not exists command_approvals (
  id uuid primary key default gen_random_uuid(),
  lift_id uuid not null references lifts(id) on delete cascade,
  name text not null,
  args jsonb not null default '{}'::jsonb,
  command_class text not null,
  reason text not null,
  state text not null default 'pending' check (state in ('pending', 'approved', 'rejected', 'withdrawn', 'expired')),
  requester_id uuid not null,
  requester_name text not null,
  requested_at timestamptz not null default now(),
  expires_at timestamptz not null,
  decider_id uuid,
  decider_name text,
  decided_at timestamptz,
  -- The command an approval ran (`lift_commands.id`), and its outcome when it never became a
  -- command (refused before it was created: the lease lost, the lift offline).
  command_id text,
  command_state text,
  command_reason text,
  -- The requester's click: a repeated request with the same key answers the same approval.
  idempotency_key text not null,
  unique (requester_id, idempotency_key)
);
create index if not exists command_approvals_lift_idx on command_approvals (lift_id, requested_at desc);
