-- What ingest remembers of a lift between statuses for its condition figures (the trip and
-- the charge under way, the last value of each flag; modules/ingest/appliers/condition.ts)
-- moves into the lift row. In a table of its own it cost every batch one more read of
-- those rows, locked, and one more write for every lift that reported: on the embedded
-- database about 40 and 30 microseconds a status of the 250 a status cost in all
-- (docs/operations.md 7.1). The lift row is read, locked, and written once a batch anyway;
-- the state now goes in with it, in the same row version, and only where a status changed it.
--
-- The last status applied is no longer kept apart: it is the lift row's `status_seq`, which
-- the same update moves. `first_day` (the start of the baseline weeks) is a key of the object.
--
-- The state goes before the configuration and the status snapshot, which stay the row's last
-- columns (migration 0034): PostgreSQL writes an update that stays on its page to the WAL from
-- the first changed byte to the last, and a status that changes the state changes the
-- snapshot's voltage too, so the state placed after the snapshot would put the whole snapshot
-- in the WAL again. One update moves the three, so no row is ever twice as wide.
alter table lifts rename column config to config_before_0037;
alter table lifts rename column status to status_before_0037;
alter table lifts add column condition_state jsonb, add column config jsonb, add column status jsonb;

update lifts l
   set condition_state = (
         select jsonb_strip_nulls(jsonb_build_object(
                  'first_day', to_char(c.first_day, 'YYYY-MM-DD'),
                  'rest_voltage', c.rest_voltage, 'rest_floor', c.rest_floor,
                  'trip_from', c.trip_from, 'trip_started_at', c.trip_started_at,
                  'trip_rest_voltage', c.trip_rest_voltage, 'trip_min_voltage', c.trip_min_voltage,
                  'charging_since', c.charging_since, 'position', c.position,
                  'overloaded', c.overloaded, 'flap', c.flap, 'pedal', c.pedal))
           from lift_condition_state c where c.lift_id = l.id),
       config = config_before_0037, status = status_before_0037,
       config_before_0037 = null, status_before_0037 = null;

alter table lifts drop column config_before_0037, drop column status_before_0037;
drop table lift_condition_state;
