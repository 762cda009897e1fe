import { afterEach, describe, expect, it } from 'vitest';
import { initialLiftStatus, type LiftStatus } from '@liftlink/protocol';
import { migrate, migrationNames } from '../src/db/migrate.ts';
import { seed } from '../src/db/seed.ts';
import { storeBatch } from '../src/modules/ingest/store.ts';
import { provisionLifts } from './support/fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, freshDatabase } from './helpers.ts';

/**
 * Upgrading a database that a previous version wrote: migrations that move data must keep
 * every lift's last status and configuration, on both databases.
 */
describe.each(DB_KINDS)('upgrading a database on %s', (kind) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => drop?.());

  /** A database as a version that stopped at migration `through` left it, with its first data, and `count` lifts. */
  async function writtenBefore(through: string, count: number) {
    const fresh = await freshDatabase(kind);
    drop = fresh.drop;
    await migrate(fresh.database.sql, { through });
    await seed(fresh.database, { adminUser: 'admin', adminPassword: ADMIN_PASSWORD, makerName: 'LiftLink Lifts' });
    return { sql: fresh.database.sql, lifts: await provisionLifts(fresh.database.sql, 'UPG', count) };
  }

  it('keeps each lift status and configuration when their columns move to the end of the row', async () => {
    const { sql, lifts: [reported, silent] } = await writtenBefore('0033_lift_status_hash.sql', 2);
    const status = { ...initialLiftStatus(2), floor: 2 };
    const config = { floorCount: 2, speedUp: 7 };
    await sql.query(`update lifts set status = $2::jsonb, status_seq = 41, status_hash = 'h', config = $3::jsonb, config_version = 3 where id = $1`, [
      reported!.id,
      JSON.stringify(status),
      JSON.stringify(config),
    ]);

    const applied = await migrate(sql);
    expect(applied).toEqual(migrationNames().filter((f) => f > '0033_lift_status_hash.sql'));

    const rows = await sql.query<{ id: string; status: unknown; status_seq: number; config: unknown; config_version: number }>(
      `select id, status, status_seq::int, config, config_version from lifts where id = any($1::uuid[])`,
      [[reported!.id, silent!.id]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(reported!.id)).toMatchObject({ status, status_seq: 41, config, config_version: 3 });
    expect(byId.get(silent!.id)).toMatchObject({ status: null, config: null });
    // The snapshot is the row's last column and the configuration just before it: a status
    // that repeats the stored one then writes only the few bytes that changed to the WAL.
    const columns = await sql.query<{ attname: string }>(
      `select attname from pg_attribute where attrelid = 'lifts'::regclass and attnum > 0 and not attisdropped order by attnum desc limit 2`,
    );
    expect(columns.map((c) => c.attname)).toEqual(['status', 'config']);
  });

  it('keeps what a lift was doing for its condition figures when that moves into the lift row: a trip under way is counted when it ends', async () => {
    const { sql, lifts: [lift] } = await writtenBefore('0036_alert_job_indexes.sql', 1);
    const status = { ...initialLiftStatus(2), floor: null };
    const day = new Date().toISOString().slice(0, 10);
    await sql.query(`update lifts set status = $2::jsonb, status_seq = 7, status_hash = 'h' where id = $1`, [lift!.id, JSON.stringify(status)]);
    // standing at floor 1 at 25.2 V on the first of the month, then left it at 00:00:05 and sank to 24.4 V
    await sql.query(
      `insert into lift_condition_state (lift_id, status_seq, first_day, rest_voltage, rest_floor, trip_from, trip_started_at, trip_rest_voltage, trip_min_voltage, position, overloaded, flap, pedal)
       values ($1, 7, $2, 25.2, 1, 1, $3, 25.2, 24.4, 1200, false, false, false)`,
      [lift!.id, `${day.slice(0, 8)}01`, `${day}T00:00:05Z`],
    );

    await migrate(sql);
    const [row] = await sql.query<{ condition_state: Record<string, unknown>; status: unknown; status_seq: number }>(
      `select condition_state, status, status_seq::int from lifts where id = $1`,
      [lift!.id],
    );
    expect(row).toMatchObject({ status, status_seq: 7, condition_state: { first_day: `${day.slice(0, 8)}01`, rest_floor: 1, trip_from: 1, rest_voltage: 25.2, trip_min_voltage: 24.4 } });
    expect(Date.parse(row!.condition_state.trip_started_at as string)).toBe(Date.parse(`${day}T00:00:05Z`));

    // the lift arrives at floor 2 after the upgrade: one trip of 7 s with a sag of 0.8 V
    const arrived: LiftStatus = { ...initialLiftStatus(2), floor: 2 };
    arrived.platform = { ...arrived.platform, movement: 'stop', voltage: 25.0 };
    await sql.transaction((tx) => storeBatch(tx, [{ kind: 'status', liftId: lift!.id, message: { seq: 8, ts: `${day}T00:00:12.000Z`, status: arrived } }]));
    const [figures] = await sql.query<{ trips: number; sag_sum: number }>(`select trips, sag_sum from lift_condition_daily where lift_id = $1 and day = $2`, [lift!.id, day]);
    expect(figures!.trips).toBe(1);
    expect(figures!.sag_sum).toBeCloseTo(0.8, 3);
    const [travel] = await sql.query<{ from_floor: number; to_floor: number; seconds_sum: number }>(`select from_floor, to_floor, seconds_sum from lift_condition_travel where lift_id = $1`, [lift!.id]);
    expect(travel).toMatchObject({ from_floor: 1, to_floor: 2, seconds_sum: 7 });
  });
});
