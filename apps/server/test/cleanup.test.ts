import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEANUP_AGES } from '../src/modules/jobs/cleanup.ts';
import { DB_KINDS, startTestApp, type TestApp } from './helpers.ts';

/** Rows that still matter and rows that no longer do, in every table the cleanup job keeps. */
describe.each(DB_KINDS)('the cleanup job on %s', (kind) => {
  let t: TestApp;
  let userId: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const [admin] = await t.database.sql.query<{ id: string }>(
      `select id from users where username = 'admin'`,
    );
    userId = admin!.id;
  }, 180_000);
  afterAll(async () => t?.close());

  const ids = async (table: string, where: string, params: unknown[] = []) =>
    (
      await t.database.sql.query<{ k: string }>(
        `select ${where} as k from ${table} order by 1`,
        params,
      )
    ).map((r) => r.k);

  it('removes what no longer does anything and keeps what still does', async () => {
    const { sql } = t.database;
    const ended = CLEANUP_AGES.endedSessionDays + 1;
    await sql.query(
      `insert into rate_limit_hits (key, hits, reset_at) values ('gone', 3, now() - interval '1 minute'), ('live', 3, now() + interval '1 minute')`,
    );
    await sql.query(
      `insert into sessions (user_id, token_hash, expires_at, revoked_at, user_agent) values
         ($1, 'h-expired', now() - make_interval(days => $2), null, 'expired long ago'),
         ($1, 'h-revoked', now() + interval '1 day', now() - make_interval(days => $2), 'revoked long ago'),
         ($1, 'h-recent', now() - interval '1 hour', null, 'expired an hour ago'),
         ($1, 'h-live', now() + interval '1 day', null, 'live')`,
      [userId, ended],
    );
    await sql.query(
      `insert into one_time_codes (purpose, subject, code_hash, created_at, expires_at, used_at) values
         ('sms', 'used-old', 'x', now() - interval '2 days', now() - interval '2 days', now() - interval '2 days'),
         ('reset', 'expired-old', 'x', now() - interval '3 days', now() - interval '2 days', null),
         ('sms', 'used-today', 'x', now() - interval '1 hour', now() + interval '1 hour', now()),
         ('activate', 'waiting', 'x', now() - interval '2 days', now() + interval '5 days', null)`,
    );
    await sql.query(
      `insert into auth_throttle (key, failures, first_failure_at, blocked_until) values
         ('account:old', 3, now() - interval '2 hours', null),
         ('account:blocked', 9, now() - interval '2 hours', now() + interval '5 minutes'),
         ('account:recent', 2, now() - interval '5 minutes', null)`,
    );
    const [lift] = await sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, manufacturer_org_id) select 'CLEAN-1', 'inclinedStraightRack', 2, id from organizations limit 1 returning id`,
    );
    const alerts = await sql.query<{ id: string; code: string }>(
      `insert into alerts (lift_id, kind, code, raised_at, cleared_at) values
         ($1, 'fault', 'old', now() - interval '300 days', now() - make_interval(days => $2)),
         ($1, 'fault', 'recent', now() - interval '10 days', now() - interval '9 days'),
         ($1, 'fault', 'open', now() - interval '400 days', null)
       returning id, code`,
      [lift!.id, CLEANUP_AGES.settledAlertDeliveryDays + 1],
    );
    for (const a of alerts)
      await sql.query(
        `insert into alert_deliveries (alert_id, user_id, due_at) values ($1, $2, now() - interval '300 days')`,
        [a.id, userId],
      );

    const [pkg] = await sql.query<{ id: string }>(
      `insert into firmware_packages (org_id, kinds, version, min_version, created_by_name)
       select id, '{inclinedStraightRack}', 'FW-CLEAN-1', 'FW-1.0.0', 'admin' from organizations where kind = 'manufacturer' limit 1 returning id`,
    );
    await sql.query(
      `insert into firmware_download_tokens (token_hash, lift_id, package_id, expires_at) values
         ('t-expired-long-ago', $1, $2, now() - make_interval(days => $3)),
         ('t-expired-an-hour-ago', $1, $2, now() - interval '1 hour'),
         ('t-live', $1, $2, now() + interval '1 hour')`,
      [lift!.id, pkg!.id, CLEANUP_AGES.expiredDownloadTokenDays + 1],
    );

    const result = await t.app.jobs.run('cleanup');
    expect(result).toMatchObject({
      rateLimits: 1,
      sessions: 2,
      oneTimeCodes: 2,
      throttle: 1,
      alertDeliveries: 1,
      downloadTokens: 1,
    });

    expect(await ids('rate_limit_hits', 'key')).toEqual(['live']);
    expect(await ids('sessions', 'user_agent', [])).toEqual(
      expect.arrayContaining(['expired an hour ago', 'live']),
    );
    expect(await ids('sessions', 'user_agent')).not.toEqual(
      expect.arrayContaining(['expired long ago']),
    );
    expect(await ids('sessions', 'user_agent')).not.toEqual(
      expect.arrayContaining(['revoked long ago']),
    );
    expect(await ids('one_time_codes', 'subject')).toEqual(['used-today', 'waiting']);
    expect(await ids('auth_throttle', 'key')).toEqual(['account:blocked', 'account:recent']);
    const kept = await sql.query<{ code: string }>(
      `select a.code from alert_deliveries d join alerts a on a.id = d.alert_id order by a.code`,
    );
    expect(kept.map((r) => r.code)).toEqual(['open', 'recent']);
    // A token that expired an hour ago is kept a day, like every age here, for a look by an operator.
    expect(await ids('firmware_download_tokens', 'token_hash')).toEqual(['t-expired-an-hour-ago', 't-live']);

    // A second run finds nothing left to remove.
    expect(await t.app.jobs.run('cleanup')).toEqual({
      rateLimits: 0,
      sessions: 0,
      oneTimeCodes: 0,
      throttle: 0,
      alertDeliveries: 0,
      downloadTokens: 0,
    });
  });
});
