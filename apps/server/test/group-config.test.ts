import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { openLiveSocket } from './support/live-socket.ts';

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const key = (label: string) => `${label}-${Math.random().toString(36).slice(2)}-0000000000`.slice(0, 40);

/**
 * Group configuration on real simulated lifts (docs/group-config.md). The demo fleet:
 * DEMO-0001 inclinedStraightRack 2 floors, -0002 inclined2dRack 3, -0003 inclined2dSprocket 4,
 * -0004 inclined3dSprocket 2, -0005 verticalHydraulic 3 (its own simulator, stopped before the
 * send), -0006 inclinedStraightRack 4 (never assigned to the operator organization: out of scope).
 */
describe.each(DB_KINDS)('group configuration on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let operator: ReturnType<typeof client>;
  let operatorToken: string;
  let viewer: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let sim: ReturnType<typeof spawnSimulator>;
  let late: ReturnType<typeof spawnSimulator> | undefined;
  let brokerUrl: string;
  let httpUrl: string;
  const ids: Record<string, string> = {};
  const deviceNos = ['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004', 'DEMO-0005', 'DEMO-0006'];
  const info = async (no: string) => body(await admin.post('/auth/access/lift/getInfo', { liftId: ids[no] })).result;
  const configSets = async (no: string) => Number((await t.database.sql.query<{ n: string }>(`select count(*) as n from lift_commands where lift_id = $1 and kind = 'config/set'`, [ids[no]]))[0]!.n);

  beforeAll(async () => {
    t = await startTestApp(kind, { HEARTBEAT_SECONDS: '15', COMMAND_WAIT_MS: '4000', COMMAND_CANCEL_WINDOW_MS: '0' });
    httpUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    fleet = await ensureDemoFleet(t.database.sql, 6);
    for (const l of fleet) ids[l.deviceNo] = l.id;
    const [org] = await t.database.sql.query<{ id: string }>(`insert into organizations (name, kind) values ('Group Ops', 'operator') returning id`);
    await t.database.sql.query('update lifts set operator_org_id = $1 where device_no = any($2::text[])', [org!.id, deviceNos.slice(0, 5)]);
    const op = await userWithRole(t, (await login(t.app, 'admin', ADMIN_PASSWORD)), 'operator', 'group-operator', org!.id);
    operatorToken = op.token;
    operator = client(t.app, op.token);
    viewer = client(t.app, (await userWithRole(t, await login(t.app, 'admin', ADMIN_PASSWORD), 'viewer', 'group-viewer', org!.id)).token);
    brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    sim = spawnSimulator(fleet.slice(0, 4), brokerUrl, () => {}, ['--activity', '0']);
    // DEMO-0005 reports its configuration once, then goes away: offline at the send.
    const fifth = spawnSimulator([fleet[4]!], brokerUrl, () => {}, ['--activity', '0']);
    await Promise.all([sim.ready, fifth.ready]);
    await until('configurations reported', async () => (await Promise.all(deviceNos.slice(0, 5).map(info))).every((i) => i.lift.online && i.config));
    fifth.child.kill('SIGKILL');
    await until('DEMO-0005 offline', async () => !(await info('DEMO-0005')).lift.online, 30_000);
  }, 120_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    late?.child.kill('SIGTERM');
    await t?.close();
  });

  it('previews the selection in scope only, each lift with its difference and its problems', async () => {
    const res = await operator.post('/auth/access/lift/group-config/preview', { selection: { deviceNos }, changes: { voiceLanguage: 'en' } });
    expect(res.statusCode, res.body).toBe(200);
    const lifts = body(res).result.lifts;
    // DEMO-0006 is out of the operator's scope: simply not selected.
    expect(lifts.map((l: any) => [l.deviceNo, l.online, l.version, l.current, l.changed, l.issues, l.forbidden])).toEqual([
      ['DEMO-0001', true, 0, { voiceLanguage: 'zh' }, ['voiceLanguage'], [], []],
      ['DEMO-0002', true, 0, { voiceLanguage: 'zh' }, ['voiceLanguage'], [], []],
      ['DEMO-0003', true, 0, { voiceLanguage: 'zh' }, ['voiceLanguage'], [], []],
      ['DEMO-0004', true, 0, { voiceLanguage: 'zh' }, ['voiceLanguage'], [], []],
      ['DEMO-0005', false, 0, { voiceLanguage: 'zh' }, ['voiceLanguage'], [], []],
    ]);
    // A maker's field is beyond an operator's role; a fourth floor exists only on the 4-floor lift.
    const maker = body(await operator.post('/auth/access/lift/group-config/preview', { selection: { kinds: ['inclinedStraightRack', 'inclined2dSprocket'] }, changes: { rapidSpeed: 110, unfoldPattern4: 'unfold' } })).result.lifts;
    expect(maker.map((l: any) => [l.deviceNo, l.forbidden, l.issues])).toEqual([
      ['DEMO-0001', ['rapidSpeed'], [{ path: 'unfoldPattern4', message: 'validation.unknownField' }]],
      ['DEMO-0003', ['rapidSpeed'], []],
    ]);
    // Values are checked by the one configuration schema before any lift is looked at.
    const bad = await operator.post('/auth/access/lift/group-config/preview', { selection: { sites: ['x'] }, changes: { rapidSpeed: 900 } });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
    const none = await operator.post('/auth/access/lift/group-config/preview', { selection: {}, changes: { voiceLanguage: 'en' } });
    expect([none.statusCode, body(none).code]).toEqual([400, 'validation.failed']);
  });

  it('offers the kinds, firmware, sites and organizations of the caller\'s lifts only', async () => {
    const options = body(await operator.get('/auth/access/lift/group-config/options')).result;
    expect(options.kinds).toEqual(['inclined2dRack', 'inclined2dSprocket', 'inclined3dSprocket', 'inclinedStraightRack', 'verticalHydraulic']);
    const sites = await t.database.sql.query<{ site: string }>(`select distinct location->>'site' as site from lifts where device_no = any($1::text[]) order by 1`, [deviceNos.slice(0, 5)]);
    expect(options.sites).toEqual(sites.map((s) => s.site));
    expect(options.orgs.map((o: any) => o.name)).toContain('Group Ops');
    const [maker] = await t.database.sql.query<{ name: string }>(`select name from organizations where kind = 'manufacturer' order by created_at limit 1`);
    expect(options.orgs.map((o: any) => o.name).sort()).toEqual(['Group Ops', maker!.name].sort());
  });

  it('refuses a send without liftConfig.edit and sends nothing', async () => {
    const preview = body(await viewer.post('/auth/access/lift/group-config/preview', { selection: { deviceNos }, changes: { voiceLanguage: 'en' } })).result.lifts;
    expect(preview).toHaveLength(5);
    const before = await Promise.all(deviceNos.map(configSets));
    const res = await viewer.post('/auth/access/lift/group-config/send', { idempotencyKey: key('viewer'), selection: { deviceNos }, changes: { voiceLanguage: 'en' }, versions: Object.fromEntries(preview.map((l: any) => [l.liftId, l.version])) });
    expect([res.statusCode, body(res).code]).toEqual([403, 'forbidden']);
    expect(await t.database.sql.query('select id from group_config_sends')).toEqual([]);
    expect(await Promise.all(deviceNos.map(configSets))).toEqual(before);
  });

  it('refuses a send that carries a command', async () => {
    const res = await operator.post('/auth/access/lift/group-config/send', { idempotencyKey: key('cmd'), selection: { deviceNos }, changes: { voiceLanguage: 'en' }, versions: { [ids['DEMO-0001']!]: 0 }, name: 'summon', args: { floor: 2 } });
    expect([res.statusCode, body(res).code]).toEqual([400, 'validation.failed']);
    expect(await t.database.sql.query(`select id from lift_commands where kind = 'cmd' and name = 'summon'`)).toEqual([]);
  });

  it('sends to each lift that may take it: done, refused by a moving lift, offline never sent, a changed version skipped; once per key', async () => {
    const changes = { voiceLanguage: 'en' };
    const reviewed = body(await operator.post('/auth/access/lift/group-config/preview', { selection: { deviceNos }, changes })).result.lifts;
    const versions = Object.fromEntries(reviewed.map((l: any) => [l.liftId, l.version]));
    // DEMO-0006 out of scope rides along in the versions: it is still not selected.
    versions[ids['DEMO-0006']!] = 0;
    // After the review, someone else configures DEMO-0003 from its lift page.
    const three = await info('DEMO-0003');
    const other = await admin.post('/auth/access/lift/run/setting/update', { liftId: ids['DEMO-0003'], config: { ...three.config, smartParking: false }, version: 0 });
    expect(body(other).result?.state, other.body).toBe('done');
    await until('DEMO-0003 version 1', async () => (await info('DEMO-0003')).lift.configVersion === 1);
    // DEMO-0004 is on its way to floor 2 (about 90 s): a moving lift refuses any configuration (busy).
    const summon = await admin.post('/auth/access/lift/control', { liftId: ids['DEMO-0004'], command: 'summon', args: { floor: 2 } });
    expect(['accepted', 'done'], summon.body).toContain(body(summon).result.state);

    const ws = await openLiveSocket(httpUrl, operatorToken);
    ws.send({ type: 'subscribe', liftIds: reviewed.map((l: any) => l.liftId) });
    await ws.next('subscribed', (m) => m.type === 'subscribed');

    const request = { idempotencyKey: key('send'), selection: { deviceNos }, changes, versions };
    const res = await operator.post('/auth/access/lift/group-config/send', request);
    expect(res.statusCode, res.body).toBe(200);
    const sent = body(res).result;
    const byNo = (g: any) => Object.fromEntries(g.lifts.map((l: any) => [l.deviceNo, [l.state, l.reason]]));
    // At once: the offline and the changed lift are decided, the others are on their way.
    expect(byNo(sent)).toMatchObject({ 'DEMO-0003': ['skipped', 'versionChanged'], 'DEMO-0005': ['offline', null] });
    expect(Object.keys(byNo(sent))).toEqual(['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004', 'DEMO-0005']);

    const final = await until('every lift answered', async () => {
      const g = body(await operator.get(`/auth/access/lift/group-config/get?id=${sent.id}`)).result;
      return g.lifts.every((l: any) => !['pending', 'sent'].includes(l.state)) && g;
    });
    expect(byNo(final)).toEqual({
      'DEMO-0001': ['done', null],
      'DEMO-0002': ['done', null],
      'DEMO-0003': ['skipped', 'versionChanged'],
      'DEMO-0004': ['refused', 'busy'],
      'DEMO-0005': ['offline', null],
    });
    expect(final.counts).toEqual({ pending: 0, sent: 0, done: 2, refused: 1, offline: 1, skipped: 1 });
    // The page heard each answer live.
    expect(await ws.next('DEMO-0001 done', (m) => m.type === 'groupConfig' && m.groupId === sent.id && m.liftId === ids['DEMO-0001'] && m.state === 'done')).toBeTruthy();
    expect(await ws.next('DEMO-0004 refused', (m) => m.type === 'groupConfig' && m.liftId === ids['DEMO-0004'] && m.state === 'refused')).toMatchObject({ reason: 'busy' });
    ws.close();

    // The lifts that took it run the new value; DEMO-0003 keeps the other user's change, untouched.
    await until('reports', async () => (await info('DEMO-0002')).config.voiceLanguage === 'en');
    expect((await info('DEMO-0001')).config).toMatchObject({ voiceLanguage: 'en' });
    expect((await info('DEMO-0003')).config).toMatchObject({ voiceLanguage: 'zh', smartParking: false });
    expect((await info('DEMO-0003')).lift.configVersion).toBe(1);
    expect(await configSets('DEMO-0005')).toBe(0);
    expect(await configSets('DEMO-0006')).toBe(0);

    // The same click again: the same send, nothing sent twice.
    const setsBefore = await Promise.all(deviceNos.map(configSets));
    const again = await operator.post('/auth/access/lift/group-config/send', request);
    expect(body(again).result.id).toBe(sent.id);
    expect(await Promise.all(deviceNos.map(configSets))).toEqual(setsBefore);
    expect(await t.database.sql.query('select id from group_config_sends')).toHaveLength(1);

    // Listed with its counts, audited once.
    const listed = await operator.get('/auth/access/lift/group-config/list');
    expect(listed.statusCode, listed.body).toBe(200);
    const list = body(listed).result.list;
    expect(list.map((s: any) => [s.id, s.changes, s.counts.done])).toEqual([[sent.id, changes, 2]]);
    const audit = await t.database.sql.query<{ detail: any }>(`select detail from audit_log where action = 'lift.groupConfig'`);
    expect(audit.map((a) => a.detail)).toEqual([{ groupId: sent.id, fields: ['voiceLanguage'], lifts: 5, sent: 3, offline: 1, skipped: 1 }]);
    // Another user cannot read this send.
    const foreign = await viewer.get(`/auth/access/lift/group-config/get?id=${sent.id}`);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'groupConfig.notFound']);

    // DEMO-0005 comes back: nothing is sent to it behind the user's back.
    late = spawnSimulator([fleet[4]!], brokerUrl, () => {}, ['--activity', '0']);
    await late.ready;
    await until('DEMO-0005 online', async () => (await info('DEMO-0005')).lift.online, 30_000);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await configSets('DEMO-0005')).toBe(0);
    expect((await info('DEMO-0005')).config.voiceLanguage).toBe('zh');
    const after = body(await operator.get(`/auth/access/lift/group-config/get?id=${sent.id}`)).result;
    expect(byNo(after)['DEMO-0005']).toEqual(['offline', null]);
  }, 120_000);
});
