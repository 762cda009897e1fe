-- An organization's time zone (IANA name): its lifts' installation windows are in its local
-- hours (docs/firmware.md, campaigns).
alter table organizations add column time_zone text not null default 'UTC';

-- Firmware campaigns (docs/firmware.md): one package rolled out to a selection of its
-- organization's lifts in stages, started only when a second person approves it.
-- selection and plan are kept as the author gave them (packages/protocol
-- api/firmware-campaigns.ts); the lifts they selected are fixed at creation in
-- firmware_campaign_lifts, each with its stage (0: the canary stage).
create table firmware_campaigns (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references organizations(id) on delete cascade,
  package_id uuid not null references firmware_packages(id),
  name text not null,
  selection jsonb not null,
  plan jsonb not null,
  state text not null default 'awaitingApproval'
    check (state in ('awaitingApproval', 'running', 'paused', 'done', 'cancelled')),
  pause_reason text check (pause_reason in ('manual', 'failureThreshold')),
  -- the stage being rolled out, and when the next may start (after the pause between stages)
  current_stage integer not null default 0,
  next_stage_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_by_name text not null,
  created_at timestamptz not null default now(),
  approved_by uuid references users(id) on delete set null,
  approved_by_name text,
  approved_at timestamptz,
  -- failures before the last resume were seen by whoever resumed: the threshold counts from here
  resumed_at timestamptz,
  ended_at timestamptz,
  check ((state = 'paused') = (pause_reason is not null))
);
create index firmware_campaigns_org_idx on firmware_campaigns (org_id, created_at desc);
create index firmware_campaigns_running_idx on firmware_campaigns (state) where state = 'running';

-- The lifts of a campaign: their stage, and the offer that carries the campaign to them
-- (its state is the lift's report, in lift_firmware_updates). offered_at is null while the
-- lift waits for its stage; cancelled_at is set when the campaign was cancelled before.
create table firmware_campaign_lifts (
  campaign_id uuid not null references firmware_campaigns(id) on delete cascade,
  lift_id uuid not null references lifts(id) on delete cascade,
  position integer not null,
  stage integer not null check (stage >= 0),
  offer_seq integer,
  offered_at timestamptz,
  cancelled_at timestamptz,
  primary key (campaign_id, lift_id),
  unique (campaign_id, position)
);
create index firmware_campaign_lifts_stage_idx on firmware_campaign_lifts (campaign_id, stage);
