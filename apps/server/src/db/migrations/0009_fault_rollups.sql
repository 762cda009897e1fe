-- Fault figures without counting the run log at read time (bench/queries.ts: the fault
-- filter of a lift with a million entries and the dashboard's faults by code counted
-- hundreds of thousands of rows per request).
-- A lift's number of fault entries, kept by ingest beside events_total.
alter table lifts add column faults_total bigint not null default 0;
update lifts l set faults_total = coalesce((select count(*) from lift_events e where e.lift_id = l.id and e.fault), 0);

-- Faults per hour (of the event's time) and code, per scope as in fleet_daily_stats:
-- 'all', 'm:<manufacturer org id>', 'o:<operator org id>' of the lift when it happened.
create table fault_hourly_stats (
  scope text not null,
  hour timestamptz not null,
  code text not null,
  faults bigint not null default 0,
  primary key (scope, hour, code)
);
insert into fault_hourly_stats (scope, hour, code, faults)
select s.scope, date_trunc('hour', e.ts), e.code, count(*)
  from lift_events e join lifts l on l.id = e.lift_id
  cross join lateral (values ('all'), ('m:' || l.manufacturer_org_id::text), ('o:' || l.operator_org_id::text)) as s(scope)
 where e.fault and s.scope is not null
 group by s.scope, date_trunc('hour', e.ts), e.code;
