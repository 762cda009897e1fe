import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

const CONTROLLER = { kind: 'inclined2dSprocket', floors: 3, firmware: 'FW-2.1.0', controllerSerial: 'CTL-BENCH-0001' } as const;

/** Connects to the broker as a lift; resolves 'connected' or the refusal text. */
function tryConnect(url: string, deviceNo: string, secret: string): Promise<string> {
  return new Promise((resolve) => {
    const c = mqtt.connect(url, { clientId: deviceNo, username: deviceNo, password: secret, reconnectPeriod: 0, connectTimeout: 5_000 });
    c.once('connect', () => {
      c.end(true);
      resolve('connected');
    });
    c.once('error', (e) => {
      c.end(true);
      resolve(e.message);
    });
  });
}

describe.each(DB_KINDS)('factory bench on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let engineer: ReturnType<typeof client>;
  let makerId: string;
  let brokerUrl: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { PUBLIC_URL: 'http://127.0.0.1:8080', COMMAND_WAIT_MS: '2000' });
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    [{ id: makerId }] = (await t.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer'`)) as [{ id: string }];
    engineer = client(t.app, (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, makerId)).token);
    brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const assign = (deviceNo: string, extra: Record<string, unknown> = {}) => engineer.post('/manufacture/lift/updateLiftIotInfo', { mode: 'assign', deviceNo, ...CONTROLLER, ...extra });
  /** Registers a controller of the test's own under `deviceNo`: no test works on another's lift. */
  const provision = async (deviceNo: string, controllerSerial: string): Promise<string> => {
    const res = await assign(deviceNo, { controllerSerial });
    expect(res.statusCode, res.body).toBe(200);
    return body(res).result.liftId;
  };

  it('registers a new controller under a device number; the lift appears in the fleet list', async () => {
    const res = await assign('LL-1001');
    expect(res.statusCode).toBe(200);
    expect(body(res).msg).toBe('device information updated successfully');
    expect(body(res).result.lift).toMatchObject({ deviceNo: 'LL-1001', kind: 'inclined2dSprocket', floors: 3, controllerSerial: 'CTL-BENCH-0001', hasCredentials: false, online: false });
    // assigning the same number to the same controller again changes nothing
    expect(body(await assign('LL-1001')).result.liftId).toBe(body(res).result.liftId);
    const list = body(await engineer.get('/auth/access/lift/get?keyword=LL-1001')).result.list;
    expect(list.map((l: any) => l.deviceNo)).toEqual(['LL-1001']);
    const lookup = body(await engineer.get('/manufacture/lift/lookup?controllerSerial=CTL-BENCH-0001')).result;
    expect(lookup.lift.deviceNo).toBe('LL-1001');
  });

  it("says 'device has been registered' for a taken number, and 'does not match' for another controller's record", async () => {
    await provision('LL-2001', 'CTL-BENCH-0201');
    const [{ last }] = (await t.database.sql.query<{ last: string }>(`select coalesce(max(id), 0) as last from audit_log`)) as [{ last: string }];
    const taken = await assign('LL-2001', { controllerSerial: 'CTL-BENCH-0202' });
    expect(taken.statusCode).toBe(409);
    expect(body(taken)).toMatchObject({ code: 'lift.registered', msg: 'device has been registered, check and retry' });
    // the registered controller asks for a second number
    expect(body(await assign('LL-2002', { controllerSerial: 'CTL-BENCH-0201' })).code).toBe('lift.registered');

    const mismatch = await engineer.post('/manufacture/lift/updateLiftIotInfo', { mode: 'update', deviceNo: 'LL-2001', ...CONTROLLER, controllerSerial: 'CTL-BENCH-0202' });
    expect(mismatch.statusCode).toBe(409);
    expect(body(mismatch)).toMatchObject({ code: 'lift.mismatch', msg: 'device does not match' });
    const update = await engineer.post('/manufacture/lift/updateLiftIotInfo', { mode: 'update', deviceNo: 'LL-2001', ...CONTROLLER, controllerSerial: 'CTL-BENCH-0201', firmware: 'FW-2.2.0' });
    expect(body(update).result.lift.firmware).toBe('FW-2.2.0');
    const audit = await t.database.sql.query<{ action: string; result: string }>(`select action, result from audit_log where action like 'manufacture.%' and id > $1 order by id`, [last]);
    expect(audit).toEqual(expect.arrayContaining([{ action: 'manufacture.assignDeviceNo', result: 'failed' }, { action: 'manufacture.updateIotInfo', result: 'failed' }, { action: 'manufacture.updateIotInfo', result: 'ok' }]));
  });

  it('issues credentials shown once and stored hashed; a new issue or a reset locks the old secret out at once', async () => {
    await provision('LL-3001', 'CTL-BENCH-0301');
    const first = await engineer.get('/manufacture/lift/getNewIot?deviceNo=LL-3001');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const iot = body(first).result;
    expect(iot).toMatchObject({ deviceNo: 'LL-3001', mqttUrl: brokerUrl, secret: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/) });
    const [row] = await t.database.sql.query<{ iot_secret_hash: string }>(`select iot_secret_hash from lifts where device_no = 'LL-3001'`);
    expect(row!.iot_secret_hash).not.toContain(iot.secret);
    expect(await tryConnect(brokerUrl, 'LL-3001', iot.secret)).toBe('connected');

    const second = body(await engineer.get(`/manufacture/lift/getNewIot?liftId=${iot.liftId}`)).result;
    expect(await tryConnect(brokerUrl, 'LL-3001', iot.secret)).toMatch(/not authorized|bad user/i);

    // a lift still connected with the current secret is thrown off by the reset and cannot return
    const lift = mqtt.connect(brokerUrl, { clientId: 'LL-3001', username: 'LL-3001', password: second.secret, reconnectPeriod: 0 });
    await new Promise((resolve) => lift.once('connect', resolve));
    const closed = new Promise<void>((resolve) => lift.once('close', () => resolve()));
    expect((await engineer.post('/manufacture/lift/resetIot', { liftId: iot.liftId })).statusCode).toBe(200);
    await closed;
    lift.end(true);
    expect(await tryConnect(brokerUrl, 'LL-3001', second.secret)).toMatch(/not authorized|bad user/i);
    expect(body(await engineer.get('/manufacture/lift/lookup?deviceNo=LL-3001')).result.lift.hasCredentials).toBe(false);

    const audit = await t.database.sql.query<{ action: string; detail: unknown }>(`select action, detail from audit_log where action in ('manufacture.issueIot', 'manufacture.resetIot') and lift_id = $1`, [iot.liftId]);
    expect(audit.map((a) => a.action).sort()).toEqual(['manufacture.issueIot', 'manufacture.issueIot', 'manufacture.resetIot']);
    expect(JSON.stringify(audit)).not.toContain(second.secret);
  });

  it('getNewIot by cookie needs the CSRF header, like a write', async () => {
    await provision('LL-4001', 'CTL-BENCH-0401');
    const token = await login(t.app, 'admin', ADMIN_PASSWORD);
    const res = await t.app.inject({ method: 'GET', url: '/manufacture/lift/getNewIot?deviceNo=LL-4001', cookies: { 'Access-Token': token } });
    expect(res.statusCode).toBe(403);
    expect(body(res).code).toBe('csrf.invalid');
  });

  it("keeps to the caller's organization and permission", async () => {
    await provision('LL-5001', 'CTL-BENCH-0501');
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const otherMaker = body(await admin.post('/auth/access/system/orgs/create', { name: `Other maker ${kind}`, kind: 'manufacturer' })).result;
    const stranger = client(t.app, (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, otherMaker.id)).token);
    expect(body(await stranger.get('/manufacture/lift/getNewIot?deviceNo=LL-5001')).code).toBe('lift.notFound');
    expect(body(await stranger.get('/manufacture/lift/lookup?deviceNo=LL-5001')).result.lift).toBeNull();
    expect(body(await stranger.post('/manufacture/lift/updateLiftIotInfo', { mode: 'assign', deviceNo: 'LL-5001', ...CONTROLLER, controllerSerial: 'CTL-X-1' })).code).toBe('lift.registered');

    const operator = client(t.app, (await userWithRole(t, adminToken, 'operator')).token);
    for (const [method, url, payload] of [
      ['GET', '/manufacture/lift/getNewIot?deviceNo=LL-5001'],
      ['POST', '/manufacture/lift/updateLiftIotInfo', { mode: 'assign', deviceNo: 'LL-1009', ...CONTROLLER }],
      ['POST', '/manufacture/bridge/pair', {}],
      ['POST', '/api/document/delete', { id: '00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      const res = method === 'GET' ? await operator.get(url) : await operator.post(url, payload);
      expect(res.statusCode, url).toBe(403);
    }
  });

  it('configures through the bench endpoints: run fields only for run/config/set, an offline lift is refused, logs are listed', async () => {
    const liftId = await provision('LL-6001', 'CTL-BENCH-0601');
    const notRun = await engineer.post('/manufacture/lift/run/config/set', { liftId, version: 0, config: { rapidSpeed: 90 } });
    expect(body(notRun)).toMatchObject({ code: 'validation.failed', result: { issues: [{ path: 'config.rapidSpeed', message: 'validation.unknownField' }] } });
    const offline = await engineer.post('/manufacture/lift/run/config/set', { liftId, version: 0, config: { voiceLanguage: 'en' } });
    expect(offline.statusCode).toBe(503);
    expect(body(offline).code).toBe('lift.offline');
    const invalid = await engineer.post('/manufacture/lift/setLiftConfig', { liftId, version: 0, config: { rapidSpeed: 90 } });
    expect(body(invalid).code).toBe('validation.failed');
    const logs = await engineer.get(`/manufacture/lift/getConfigLogs?liftId=${liftId}`);
    expect(body(logs).result).toEqual({ list: [], total: 0 });
  });

  it('audits the serial steps the page reports, without secrets', async () => {
    const liftId = await provision('LL-7001', 'CTL-BENCH-0701');
    const res = await engineer.post('/manufacture/lift/serial/log', { step: 'writeChannel', result: 'ok', controllerSerial: 'CTL-BENCH-0701', deviceNo: 'LL-7001', detail: { channel: 3 } });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.sql.query<{ action: string; target_id: string; lift_id: string | null }>(`select action, target_id, lift_id from audit_log where action = 'manufacture.serial.writeChannel' and target_id = 'CTL-BENCH-0701'`);
    expect(row).toMatchObject({ target_id: 'CTL-BENCH-0701', lift_id: liftId });
  });

  it('pairs the bridge with a one-time code that only works once', async () => {
    const { code, expiresAt } = body(await engineer.post('/manufacture/bridge/pair', {})).result;
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const anon = client(t.app);
    expect(body(await anon.post('/manufacture/bridge/pair/verify', { code: 'AAAA-AAAA' })).code).toBe('auth.tokenInvalid');
    const verified = await anon.post('/manufacture/bridge/pair/verify', { code: `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}` });
    expect(body(verified).result.user).toMatch(/^manufacturerEngineer-/);
    expect(body(await anon.post('/manufacture/bridge/pair/verify', { code })).code).toBe('auth.tokenInvalid');
  });
});
