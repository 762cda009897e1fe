-- Each lift's firmware updates (docs/firmware.md, docs/protocol.md section 11): one row per
-- offer, written when the cloud issues it (`offered`) and moved on by the lift's
-- `firmware/state` reports. A report is applied only when it is newer (by the lift's seq)
-- than the one stored: a late or redelivered report changes nothing. A report the lift
-- sent for an offer it could not read (`offerSeq` null) is kept under offer_seq 0, the
-- newest one only. campaign_id says which campaign made the offer (none: a single offer).
create table lift_firmware_updates (
  lift_id uuid not null references lifts(id) on delete cascade,
  offer_seq integer not null check (offer_seq >= 0),
  package_id uuid references firmware_packages(id) on delete set null,
  campaign_id uuid,
  version text,
  state text not null check (state in ('offered', 'queued', 'downloading', 'verifying', 'deferred', 'installing', 'rebooting', 'done', 'failed', 'rolledBack')),
  percent smallint check (percent between 0 and 100),
  bytes bigint check (bytes >= 0),
  reason text,
  retry_at timestamptz,
  running_version text,
  report_seq bigint not null default 0,
  offered_at timestamptz,
  reported_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (lift_id, offer_seq)
);
create index lift_firmware_updates_package_idx on lift_firmware_updates (package_id, state);
create index lift_firmware_updates_campaign_idx on lift_firmware_updates (campaign_id, state) where campaign_id is not null;
