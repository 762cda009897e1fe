-- The emergency-alarm device's health (EN 81-28; docs/protocol.md, "alarm"): the lift's last
-- alarm report, kept on the lift like its status. `alarm_seq` orders the reports (an older one
-- arriving late changes nothing). A lift is expected to report a passed self-test within
-- ALARM_TEST_MAX_HOURS of `alarm_watch_from` (its creation, or this upgrade for the lifts that
-- exist now, so a fleet whose firmware is updated gets the same time to send its first test).
alter table lifts
  add column alarm_seq bigint not null default 0,
  add column alarm_reported_at timestamptz,
  add column alarm_test_at timestamptz,
  add column alarm_test_result text check (alarm_test_result in ('passed', 'failed')),
  add column alarm_test_failed text[] not null default '{}',
  add column alarm_last_passed_at timestamptz,
  add column alarm_battery_percent smallint,
  add column alarm_battery_voltage real,
  add column alarm_battery_low boolean,
  add column alarm_watch_from timestamptz not null default now();

-- Alerts of the alarm device: a failed or missed self-test, a low battery.
alter table alerts drop constraint if exists alerts_kind_check;
alter table alerts add constraint alerts_kind_check check (kind in ('fault', 'help', 'offline', 'alarmTest', 'alarmBattery'));

-- The topic lists (UPLINK_TOPICS, DOWNLINK_TOPICS) the broker's lift accounts were last given
-- rights for, per broker. A lift account gets its rights when its credentials are issued; when
-- a version adds a topic (this one: `alarm`), the server gives every existing account the new
-- rights once at its start and records the lists' version here.
create table if not exists broker_lift_rights (
  broker text primary key,
  version text not null,
  updated_at timestamptz not null default now()
);
