-- Organization invite codes (docs/product.md, "Invite codes"): a user administrator makes
-- a code for an organization and a role; whoever registers with it, or enters it signed in
-- without an organization, joins that organization with that role. Only the code's SHA-256
-- is kept, with its first characters for the list. `uses` only grows, by one per redeem,
-- in a single conditional update, so it never passes `max_uses`.
create table org_invites (
  id uuid primary key default gen_random_uuid(),
  code_hash text not null unique,
  prefix text not null,
  org_id uuid not null references organizations(id) on delete cascade,
  role_id uuid not null references roles(id) on delete cascade,
  max_uses integer not null check (max_uses >= 1),
  uses integer not null default 0 check (uses >= 0 and uses <= max_uses),
  expires_at timestamptz not null,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index org_invites_created_idx on org_invites (created_at desc);
