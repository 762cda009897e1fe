-- Foundation: organizations, roles, users, sessions, one-time codes, sign-in throttle,
-- audit log, and the lift registry that ownership checks read.
create table organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  kind text not null check (kind in ('manufacturer', 'operator')),
  created_at timestamptz not null default now()
);

create table roles (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  role_type text not null default 'custom',
  built_in boolean not null default false,
  permissions jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  username text not null,
  email text,
  mobile text,
  name text not null,
  avatar text not null default '',
  language text not null default 'zh-CN',
  status text not null default 'active' check (status in ('active', 'frozen', 'pending')),
  password_hash text not null,
  two_step boolean not null default false,
  role_id uuid not null references roles(id),
  org_id uuid references organizations(id),
  settings jsonb not null default '{}'::jsonb,
  notifications jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_login_at timestamptz
);
create unique index users_username_key on users (lower(username));
create unique index users_email_key on users (lower(email)) where email is not null;
create unique index users_mobile_key on users (mobile) where mobile is not null;

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
create index sessions_user_idx on sessions (user_id) where revoked_at is null;

-- SMS codes, activation and reset links: only hashes are kept.
create table one_time_codes (
  id uuid primary key default gen_random_uuid(),
  purpose text not null check (purpose in ('sms', 'activate', 'reset')),
  subject text not null,
  code_hash text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  attempts integer not null default 0,
  used_at timestamptz
);
create index one_time_codes_lookup on one_time_codes (purpose, subject, created_at desc);

-- Failed sign-ins per account and per address, shared by every server instance.
create table auth_throttle (
  key text primary key,
  failures integer not null default 0,
  first_failure_at timestamptz not null default now(),
  blocked_until timestamptz
);

create table audit_log (
  id bigint generated always as identity primary key,
  ts timestamptz not null default now(),
  user_id uuid,
  username text,
  action text not null,
  target_type text,
  target_id text,
  lift_id uuid,
  ip text,
  result text not null,
  detail jsonb not null default '{}'::jsonb
);
create index audit_log_ts_idx on audit_log (ts desc);
create index audit_log_lift_idx on audit_log (lift_id, ts desc) where lift_id is not null;
create index audit_log_user_idx on audit_log (user_id, ts desc);

create table lifts (
  id uuid primary key default gen_random_uuid(),
  device_no text unique,
  alias text not null default '',
  kind text not null,
  floors integer not null check (floors between 1 and 4),
  firmware text not null default '',
  controller_serial text unique,
  manufacturer_org_id uuid not null references organizations(id),
  operator_org_id uuid references organizations(id),
  location jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index lifts_manufacturer_idx on lifts (manufacturer_org_id);
create index lifts_operator_idx on lifts (operator_org_id);
