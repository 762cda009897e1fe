-- Factory bench: who registered a lift's controller, one-time pairing codes of the serial
-- bridge, and stored documents (manuals per device kind, the bridge package, uploads).
alter table lifts
  add column registered_at timestamptz,
  add column registered_by text;

-- A pairing code is shown once to a signed-in user and typed into the bridge, which
-- verifies it here once. Only its hash is stored.
create table bridge_pairings (
  id uuid primary key default gen_random_uuid(),
  code_hash text not null unique,
  user_id uuid not null references users(id) on delete cascade,
  username text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  verified_at timestamptz,
  verified_ip text
);
create index bridge_pairings_user_idx on bridge_pairings (user_id, created_at desc);

create table documents (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  kind text not null check (kind in ('manual', 'bridge', 'other')),
  device_kind text,
  content_type text not null,
  size integer not null,
  sha256 text not null,
  data bytea not null,
  -- Documents the server seeds itself (the bridge package, the manuals); a deleted one is
  -- remembered so that it does not come back at the next start.
  seed_key text unique,
  uploaded_by text,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index documents_list_idx on documents (kind, created_at desc) where deleted_at is null;
