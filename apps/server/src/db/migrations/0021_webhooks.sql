-- Webhooks (docs/webhooks.md): an organization's endpoints receive the incident and alert events
-- of its lifts (those it operates and those it made) as signed HTTP POSTs.
--
-- The secret is kept as it is: the server needs it for every signature (HMAC), so a hash would
-- not do. Whoever reads this table (or a backup of it) could sign requests for that endpoint;
-- the API shows a secret only once, at creation and on rotation, and never lists it.
create table if not exists webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references organizations(id) on delete cascade,
  url text not null,
  description text not null default '',
  event_types text[] not null,
  secret text not null,
  enabled boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists webhook_endpoints_org_idx on webhook_endpoints (org_id);

-- One event for one endpoint. `payload` is the exact body every attempt sends (the signature
-- covers it with a fresh timestamp each time). A pending delivery is due at `next_attempt_at`;
-- a worker claims it by moving that time past its own attempt (`for update skip locked`), so
-- several instances never send the same attempt twice. Retries stop at `give_up_at`.
create table if not exists webhook_deliveries (
  id bigint generated always as identity primary key,
  endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
  event_id uuid not null,
  event_type text not null,
  occurred_at timestamptz not null,
  payload text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  give_up_at timestamptz not null,
  last_status_code integer,
  last_error text,
  last_duration_ms integer,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  unique (endpoint_id, event_id)
);
create index if not exists webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending';
create index if not exists webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id desc);

-- Every HTTP attempt of a delivery, for the delivery log: when, the answer's status (null when
-- none came: refused, timed out) or the error, and how long it took.
create table if not exists webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id bigint not null references webhook_deliveries(id) on delete cascade,
  at timestamptz not null default now(),
  status_code integer,
  error text,
  duration_ms integer not null
);
create index if not exists webhook_attempts_delivery_idx on webhook_attempts (delivery_id, id);
