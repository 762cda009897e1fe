-- Dashboard rollups kept by ingest, so fleet charts read 30 rows instead of 300,000.
-- scope: 'all', 'm:<manufacturer org id>' or 'o:<operator org id>' (trips are booked to
-- the organizations that held the lift when the trip happened).
create table fleet_daily_stats (
  scope text not null,
  day date not null,
  trips bigint not null default 0,
  primary key (scope, day)
);
insert into fleet_daily_stats (scope, day, trips)
select s.scope, d.day, sum(d.trips)
  from lift_daily_stats d join lifts l on l.id = d.lift_id
  cross join lateral (values ('all'), ('m:' || l.manufacturer_org_id::text), ('o:' || l.operator_org_id::text)) as s(scope)
 where s.scope is not null group by s.scope, d.day;

-- Trips over the last 30 days per lift, for "top lifts"; ingest adds, a job recomputes.
alter table lifts add column trips_30d bigint not null default 0;
update lifts l set trips_30d = coalesce((select sum(trips) from lift_daily_stats d where d.lift_id = l.id and d.day > current_date - 30), 0);
create index lifts_trips_30d_idx on lifts (trips_30d desc);
