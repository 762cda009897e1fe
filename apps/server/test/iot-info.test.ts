import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/** The lift's IoT details (SIM card, module, signal): edited with lift.edit, each change in the configuration log. */
describe.each(DB_KINDS)('IoT details of a lift on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let admin: ReturnType<typeof client>;
  // A lift per test: what one test stores is never what another starts from.
  const liftIds: string[] = [];

  const info = async (liftId: string) => body(await admin.post('/auth/access/lift/getInfo', { liftId })).result.lift.iotInfo;
  const iotLog = async (liftId: string) => (body(await admin.get(`/auth/access/lift/config/logs?liftId=${liftId}`)).result.list as { source: string }[]).filter((e) => e.source === 'iot');
  /** A lift with details stored once by the admin, for the tests that must change nothing. */
  const liftWithDetails = async (liftId: string) => {
    const details = { iccid: '89860012345678900000', carrier: 'China Unicom', module: 'Quectel EC200N', signal: -80 };
    expect((await admin.post('/auth/access/lift/iot/update', { liftId, iotInfo: details })).statusCode).toBe(200);
    expect(await iotLog(liftId)).toHaveLength(1);
    return details;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    for (const lift of await ensureDemoFleet(t.database.sql, 4)) liftIds.push((await t.database.sql.query<{ id: string }>('select id from lifts where device_no = $1', [lift.deviceNo]))[0]!.id);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('starts with nothing reported', async () => {
    expect(await info(liftIds[0]!)).toEqual({});
    expect(await iotLog(liftIds[0]!)).toEqual([]);
  });

  it('stores an edit and logs who changed what, before and after', async () => {
    const liftId = liftIds[1]!;
    const first = { iccid: '89860012345678901234', carrier: 'China Mobile', apn: 'cmnet', module: 'Quectel EC200N', signal: -71 };
    expect((await admin.post('/auth/access/lift/iot/update', { liftId, iotInfo: first })).statusCode).toBe(200);
    expect(await info(liftId)).toEqual(first);
    const second = { ...first, apn: 'cmiot', signal: -95 };
    expect((await admin.post('/auth/access/lift/iot/update', { liftId, iotInfo: second })).statusCode).toBe(200);
    expect(await info(liftId)).toEqual(second);

    const log = await iotLog(liftId);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ username: 'admin', source: 'iot', version: null, result: 'applied', before: first, after: second });
    expect(log[1]).toMatchObject({ username: 'admin', before: {}, after: first });
    // The same details again change nothing and log nothing.
    expect((await admin.post('/auth/access/lift/iot/update', { liftId, iotInfo: second })).statusCode).toBe(200);
    expect(await iotLog(liftId)).toHaveLength(2);
    // The audit keeps its own entry of each request.
    const audit = await t.database.sql.query<{ n: string }>(`select count(*) as n from audit_log where action = 'lift.iotInfo' and lift_id = $1`, [liftId]);
    expect(Number(audit[0]!.n)).toBe(3);
  });

  it('refuses a user without lift.edit with 403 and changes nothing', async () => {
    const liftId = liftIds[2]!;
    const before = await liftWithDetails(liftId);
    const viewer = await userWithRole(t, adminToken, 'viewer');
    const res = await client(t.app, viewer.token).post('/auth/access/lift/iot/update', { liftId, iotInfo: { carrier: 'Intruder' } });
    expect(res.statusCode).toBe(403);
    expect(await info(liftId)).toEqual(before);
    expect(await iotLog(liftId)).toHaveLength(1);
  });

  it('refuses a wrong ICCID or signal with 400, naming the field, and changes nothing', async () => {
    const liftId = liftIds[3]!;
    const before = await liftWithDetails(liftId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/access/lift/iot/update',
      headers: { 'access-token': adminToken, 'accept-language': 'en-US' },
      payload: { liftId, iotInfo: { iccid: '8986-0012', signal: -20.5 } },
    });
    expect(res.statusCode).toBe(400);
    const answer = body(res);
    expect(answer.result.issues).toEqual(
      expect.arrayContaining([
        { path: 'iotInfo.iccid', message: 'validation.iccid' },
        { path: 'iotInfo.signal', message: 'validation.signal' },
      ]),
    );
    expect(answer.msg).not.toMatch(/^validation\./);
    const tooLong = await admin.post('/auth/access/lift/iot/update', { liftId, iotInfo: { module: 'x'.repeat(61) } });
    expect(tooLong.statusCode).toBe(400);
    expect(body(tooLong).result.issues).toContainEqual({ path: 'iotInfo.module', message: 'validation.tooLong' });
    expect(await info(liftId)).toEqual(before);
    expect(await iotLog(liftId)).toHaveLength(1);
  });
});
