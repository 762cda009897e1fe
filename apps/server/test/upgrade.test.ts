import { afterEach, describe, expect, it } from 'vitest';
import { initialLiftStatus } from '@liftlink/protocol';
import { migrate, migrationNames } from '../src/db/migrate.ts';
import { seed } from '../src/db/seed.ts';
import { provisionLifts } from './support/fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, freshDatabase } from './helpers.ts';

/**
 * Upgrading a database that a previous version wrote: migrations that move data must keep
 * every lift's last status and configuration, on both databases.
 */
describe.each(DB_KINDS)('upgrading a database on %s', (kind) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => drop?.());

  it('keeps each lift status and configuration when their columns move to the end of the row', async () => {
    const fresh = await freshDatabase(kind);
    drop = fresh.drop;
    const { sql } = fresh.database;
    await migrate(sql, { through: '0033_lift_status_hash.sql' });
    await seed(fresh.database, { adminUser: 'admin', adminPassword: ADMIN_PASSWORD, makerName: 'LiftLink Lifts' });
    const [reported, silent] = await provisionLifts(sql, 'UPG', 2);
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
});
