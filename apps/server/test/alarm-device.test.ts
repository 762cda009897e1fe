import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { ALARM_TEST_MAX_HOURS, liftTopic, type AlertView, type LiftInfo } from '@liftlink/protocol';
import { buildApp } from '../src/app.ts';
import { ensureDemoFleet, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, type TestApp } from './helpers.ts';
import { DynsecClient, grantLiftRoleAcls, liftRoleName } from '../src/modules/broker/dynsec.ts';
import { upgradeLiftRights, liftRightsVersion } from '../src/modules/broker/lift-rights.ts';
import { grantLiftTopicPermissions } from '../src/modules/broker/rabbitmq-admin.ts';
import { RabbitApi } from '../src/modules/broker/rabbitmq-api.ts';
import { liftPermissions } from '../src/modules/broker/rabbitmq-names.ts';
import { rabbitmqMissing, rabbitmqServerEnv, startBrokerCluster, type BrokerCluster } from './support/broker-cluster.ts';
import { closedWithin, connectLift, publishEvent } from './support/lift-client.ts';
import { mosquittoMissing, startMosquitto, type PrivateMosquitto } from './support/mosquitto.ts';
import { until } from './support/ports.ts';
import { skipWithout } from './support/required.ts';

/**
 * The emergency-alarm device's health (EN 81-28): the lift's alarm reports over MQTT are
 * stored and shown with the lift; a failed or missed self-test and a low battery are alerts,
 * mailed to who chose them; a passing report clears them.
 */
describe.each(DB_KINDS)('alarm device on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let brokerUrl: string;
  const open: MqttClient[] = [];
  let seq = 5_000_000;
  const battery = { percent: 95, voltage: 13.2, low: false };

  const info = async (lift: DemoLift): Promise<LiftInfo> => {
    const res = await admin.post('/auth/access/lift/getInfo', { liftId: lift.id });
    expect(res.statusCode, res.body).toBe(200);
    return body<LiftInfo>(res).result;
  };
  const openAlerts = async (lift: DemoLift): Promise<AlertView[]> =>
    body<{ list: AlertView[] }>(await admin.get(`/auth/access/alerts?state=open&liftId=${lift.id}&pageSize=50`)).result.list;
  const connect = async (lift: DemoLift): Promise<MqttClient> => {
    const c = await mqtt.connectAsync(brokerUrl, { clientId: lift.deviceNo, username: lift.deviceNo, password: lift.secret, reconnectPeriod: 0, clean: true });
    open.push(c);
    return c;
  };
  /** Publishes as the lift, QoS 1: the embedded broker acknowledges once ingest has stored it. */
  const report = async (c: MqttClient, lift: DemoLift, body: object): Promise<void> => {
    await c.publishAsync(liftTopic(lift.deviceNo, 'alarm'), JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), ...body }), { qos: 1 });
  };
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    fleet = await ensureDemoFleet(t.database.sql, 6);
    brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    // The admin reads English mail and chose the alarm-device mails.
    await t.database.sql.query(`update users set email = 'admin@example.com', language = 'en-US' where username = 'admin'`);
    const settings = body(await admin.get('/auth/access/account/notifications')).result;
    expect(settings.mailAlarmDevice).toBe(false);
    const saved = await admin.post('/auth/access/account/notifications/update', { ...settings, mailAlarmDevice: true });
    expect(saved.statusCode, saved.body).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.endAsync(true).catch(() => {})));
    await t.close();
  });

  it('stores a report and shows the last test and the battery in getInfo', async () => {
    const lift = fleet[0]!;
    expect((await info(lift)).alarmDevice).toBeNull();
    const c = await connect(lift);
    const testedAt = hoursAgo(1);
    await report(c, lift, { test: { at: testedAt, result: 'passed' }, battery });
    expect((await info(lift)).alarmDevice).toEqual({
      reportedAt: expect.any(String),
      lastTest: { at: testedAt, result: 'passed', failed: [] },
      battery: { percent: 95, voltage: 13.2, low: false },
      testOverdue: false,
    });
    // A report without a test (sent on connecting, before the first test) keeps the last test.
    await report(c, lift, { battery: { percent: 94, low: false } });
    const after = (await info(lift)).alarmDevice!;
    expect(after.lastTest).toEqual({ at: testedAt, result: 'passed', failed: [] });
    expect(after.battery).toEqual({ percent: 94, voltage: null, low: false });
    expect(await openAlerts(lift)).toEqual([]);
  });

  it('drops malformed reports, counted like other invalid messages, and changes nothing', async () => {
    const lift = fleet[0]!;
    const before = await info(lift);
    const drops = t.app.ingest.stats().drops;
    const c = await connect(lift);
    await report(c, lift, { test: { at: hoursAgo(0), result: 'failed' }, battery }); // a failure must name its parts
    await report(c, lift, { test: { at: hoursAgo(0), result: 'passed' }, battery: { low: false } }); // no figure
    await report(c, lift, { test: { at: hoursAgo(0), result: 'passed', failed: ['button'] }, battery });
    await report(c, lift, { battery: { percent: 150, low: false } });
    await report(c, lift, { battery, firmwareNote: 'x' });
    await c.publishAsync(liftTopic(lift.deviceNo, 'alarm'), '{"seq":', { qos: 1 });
    const now = t.app.ingest.stats().drops;
    expect(now.schema).toBe((drops.schema ?? 0) + 5);
    expect(now.json).toBe((drops.json ?? 0) + 1);
    expect((await info(lift)).alarmDevice).toEqual(before.alarmDevice);
    expect(await openAlerts(lift)).toEqual([]);
  });

  it('raises alarmTest for a failed self-test and mails it to who chose it; a passing test clears it', async () => {
    const lift = fleet[1]!;
    const c = await connect(lift);
    await report(c, lift, { test: { at: hoursAgo(0), result: 'failed', failed: ['speechLine', 'battery'] }, battery });
    const alerts = await openAlerts(lift);
    expect(alerts.map((a) => [a.kind, a.code])).toEqual([['alarmTest', 'failed']]);
    expect((await info(lift)).alarmDevice!.lastTest).toMatchObject({ result: 'failed', failed: ['speechLine', 'battery'] });
    // Like every alarm, it opens the lift's incident for its cause.
    const incidents = await t.database.sql.query<{ cause: string; code: string | null }>(`select cause, code from incidents where lift_id = $1`, [lift.id]);
    expect(incidents).toEqual([{ cause: 'alarmTest', code: 'failed' }]);
    // The same failure repeated (a report on reconnecting) raises nothing new.
    const repeated = (await info(lift)).alarmDevice!.lastTest!;
    await report(c, lift, { test: { at: repeated.at, result: 'failed', failed: ['speechLine', 'battery'] }, battery });
    expect(await openAlerts(lift)).toHaveLength(1);

    await t.app.jobs.run('alerts');
    const mail = t.mails.find((m) => m.subject.includes(lift.deviceNo));
    expect(mail?.to).toBe('admin@example.com');
    expect(mail?.subject).toContain('alarm device failed its self-test');

    await report(c, lift, { test: { at: hoursAgo(0), result: 'passed' }, battery });
    expect(await openAlerts(lift)).toEqual([]);
    const [cleared] = await t.database.sql.query<{ cleared: boolean }>(`select cleared_at is not null as cleared from alerts where lift_id = $1 and kind = 'alarmTest'`, [lift.id]);
    expect(cleared?.cleared).toBe(true);
  });

  it(`raises alarmTest (missed) when a lift has passed no self-test for over ${ALARM_TEST_MAX_HOURS} hours, once, until a test comes`, async () => {
    const lift = fleet[2]!;
    const c = await connect(lift);
    await report(c, lift, { test: { at: hoursAgo(10), result: 'passed' }, battery });
    await t.app.jobs.run('alerts');
    expect(await openAlerts(lift)).toEqual([]);
    // Its last passed test is now 73 hours old.
    await t.database.sql.query(`update lifts set alarm_test_at = now() - interval '73 hours', alarm_last_passed_at = now() - interval '73 hours' where id = $1`, [lift.id]);
    expect((await info(lift)).alarmDevice!.testOverdue).toBe(true);
    await t.app.jobs.run('alerts');
    const alerts = await openAlerts(lift);
    expect(alerts.map((a) => [a.kind, a.code])).toEqual([['alarmTest', 'missed']]);
    expect(t.mails.find((m) => m.subject.includes(lift.deviceNo))?.subject).toContain(`alarm device has passed no self-test for ${ALARM_TEST_MAX_HOURS} hours`);
    // Acknowledged, it is not raised again while no new test arrives.
    const ack = await admin.post('/auth/access/alerts/ack', { id: alerts[0]!.id });
    expect(ack.statusCode, ack.body).toBe(200);
    await t.app.jobs.run('alerts');
    expect(await openAlerts(lift)).toEqual([]);

    await report(c, lift, { test: { at: hoursAgo(0), result: 'passed' }, battery });
    expect((await info(lift)).alarmDevice!.testOverdue).toBe(false);
    await t.app.jobs.run('alerts');
    expect(await openAlerts(lift)).toEqual([]);
  });

  it('counts a lift that never reported from when it was watched, and leaves unprovisioned lifts alone', async () => {
    const [never, unprovisioned] = [fleet[3]!, fleet[4]!];
    await t.database.sql.query(`update lifts set alarm_watch_from = now() - interval '80 hours' where id = any($1::uuid[])`, [[never.id, unprovisioned.id]]);
    await t.database.sql.query(`update lifts set iot_secret_hash = null where id = $1`, [unprovisioned.id]);
    await t.app.jobs.run('alerts');
    expect((await openAlerts(never)).map((a) => [a.kind, a.code])).toEqual([['alarmTest', 'missed']]);
    expect(await openAlerts(unprovisioned)).toEqual([]);
  });

  it('raises alarmBattery when the battery turns low (by the flag or the threshold), not again while it stays low', async () => {
    const lift = fleet[5]!;
    const c = await connect(lift);
    await report(c, lift, { test: { at: hoursAgo(0), result: 'passed' }, battery: { percent: 18, voltage: 11.6, low: false } });
    expect((await openAlerts(lift)).map((a) => a.kind)).toEqual(['alarmBattery']);
    expect((await info(lift)).alarmDevice!.battery).toEqual({ percent: 18, voltage: 11.6, low: true });
    await t.app.jobs.run('alerts');
    expect(t.mails.find((m) => m.subject.includes(lift.deviceNo))?.subject).toContain('alarm device battery is low');
    // Acknowledged and still low: not raised again by every report.
    const [alert] = await openAlerts(lift);
    await admin.post('/auth/access/alerts/ack', { id: alert!.id });
    await report(c, lift, { battery: { voltage: 11.4, low: true } });
    expect(await openAlerts(lift)).toEqual([]);
    await report(c, lift, { battery: { percent: 80, low: false } });
    expect((await info(lift)).alarmDevice!.battery.low).toBe(false);
    expect(await openAlerts(lift)).toEqual([]);
  });

  it('clears the alarmBattery alert when a good battery is reported', async () => {
    const lift = fleet[3]!;
    const c = await connect(lift);
    const batteryAlerts = async () => (await openAlerts(lift)).filter((a) => a.kind === 'alarmBattery');
    await report(c, lift, { battery: { voltage: 11.2, low: true } });
    expect(await batteryAlerts()).toHaveLength(1);
    await report(c, lift, { battery: { voltage: 12.8, percent: 85, low: false } });
    expect(await batteryAlerts()).toEqual([]);
    const [cleared] = await t.database.sql.query<{ cleared: boolean }>(`select cleared_at is not null as cleared from alerts where lift_id = $1 and kind = 'alarmBattery'`, [lift.id]);
    expect(cleared?.cleared).toBe(true);
  });

  it("keeps an older report that arrives late from undoing a newer one, and refuses another lift's publish on this lift's alarm topic", async () => {
    const [lift, other] = [fleet[0]!, fleet[1]!];
    const c = await connect(lift);
    await report(c, lift, { test: { at: hoursAgo(0), result: 'passed' }, battery });
    const newest = (await info(lift)).alarmDevice;
    await c.publishAsync(liftTopic(lift.deviceNo, 'alarm'), JSON.stringify({ seq: 1, ts: hoursAgo(5), test: { at: hoursAgo(5), result: 'failed', failed: ['button'] }, battery: { percent: 5, low: true } }), { qos: 1 });
    expect((await info(lift)).alarmDevice).toEqual(newest);
    expect(await openAlerts(lift)).toEqual([]);

    const intruder = await connect(other);
    const forged = { seq: ++seq, ts: new Date().toISOString(), test: { at: hoursAgo(0), result: 'failed', failed: ['button'] }, battery: { percent: 1, low: true } };
    const closed = closedWithin(intruder, 5_000);
    intruder.publish(liftTopic(lift.deviceNo, 'alarm'), JSON.stringify(forged), { qos: 1 });
    expect(await closed).toBe(true);
    // A marker of the lift's own, stored after whatever the intruder sent.
    await report(c, lift, { battery: { percent: 93, low: false } });
    await until('the marker', async () => (await info(lift)).alarmDevice?.battery.percent === 93, 5_000);
    expect((await info(lift)).alarmDevice!.lastTest!.result).toBe('passed');
    expect(await openAlerts(lift)).toEqual([]);
  });
});

const BROKERS = ['mosquitto', 'rabbitmq'] as const;
const brokerSkipped = { mosquitto: skipWithout('Mosquitto', mosquittoMissing), rabbitmq: skipWithout('RabbitMQ', rabbitmqMissing) };

/**
 * On a real broker the lift's rights come from the topic lists: a lift may publish its own
 * alarm reports and no other lift's. A lift provisioned by a version without the alarm topic
 * gets it at the next start (once).
 */
describe.each(BROKERS)('the alarm topic on the %s broker', (mode) => {
  const skip = brokerSkipped[mode];
  let broker: PrivateMosquitto | undefined;
  let cluster: BrokerCluster | undefined;
  let t: TestApp;
  let url: string;
  const lifts: { id: string; deviceNo: string; secret: string }[] = [];
  const open: MqttClient[] = [];
  let seq = 7_000_000;

  const connectAs = async (i: number) => {
    const c = await connectLift(url, lifts[i]!.deviceNo, lifts[i]!.secret);
    open.push(c);
    return c;
  };
  const storedSeq = async (i: number) => Number((await t.database.sql.query<{ alarm_seq: string }>(`select alarm_seq from lifts where id = $1`, [lifts[i]!.id]))[0]!.alarm_seq);
  const alarmReport = (i: number, percent: number) => ({ topic: liftTopic(lifts[i]!.deviceNo, 'alarm'), payload: JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), test: { at: new Date().toISOString(), result: 'passed' }, battery: { percent, low: false } }) });
  /** Publishes as lift `by` (a refusal may close the connection); then an event of lift `by` as a marker that was stored after it. */
  const publishThenMark = async (by: number, message: { topic: string; payload: string }) => {
    const c = await connectAs(by);
    await Promise.race([c.publishAsync(message.topic, message.payload, { qos: 1 }), closedWithin(c, 3_000)]).catch(() => {});
    // A fresh connection: the broker may be closing the one that broke the rules.
    await c.endAsync(true).catch(() => {});
    const marker = ++seq;
    const m = await connectAs(by);
    await publishEvent(m, lifts[by]!.deviceNo, marker, 'RZD1');
    await until('the marker', async () => (await t.database.sql.query('select 1 from lift_events where lift_id = $1 and seq = $2', [lifts[by]!.id, marker])).length === 1, 15_000);
  };

  beforeAll(async () => {
    if (skip) return;
    if (mode === 'mosquitto') broker = await startMosquitto();
    else cluster = await startBrokerCluster('rabbitmq');
    const env = cluster ? rabbitmqServerEnv(cluster) : broker!.env;
    t = await startTestApp(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', env);
    url = broker?.url ?? cluster!.mqttUrls[1]!;
    for (const demo of await ensureDemoFleet(t.database.sql, 2)) {
      const issued = await t.app.deviceCredentials.issue(demo.id);
      lifts.push({ id: demo.id, deviceNo: issued.deviceNo, secret: issued.secret });
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(open.map((c) => c.endAsync(true).catch(() => {})));
    await t?.close();
    await broker?.destroy();
    await cluster?.destroy();
  }, 60_000);

  it.skipIf(skip)("lets a lift publish its own alarm reports, and not another lift's", async () => {
    const own = alarmReport(0, 91);
    const c = await connectAs(0);
    await c.publishAsync(own.topic, own.payload, { qos: 1 });
    await until('own report stored', async () => (await storedSeq(0)) === seq, 15_000);
    const stored = await storedSeq(0);
    // Lift 1 forges a report on lift 0's topic.
    await publishThenMark(1, alarmReport(0, 3));
    expect(await storedSeq(0)).toBe(stored);
  });

  it.skipIf(skip)('gives a lift provisioned before the alarm topic the right to it after the next start, once', async () => {
    const recorded = async () => (await t.database.sql.query<{ version: string }>(`select version from broker_lift_rights where broker = $1`, [mode]))[0]?.version;
    await until('the first start records the topic lists', async () => (await recorded()) === liftRightsVersion(), 15_000);
    // Lift 0's account as an older version made it: without the alarm topic.
    let grant: (deviceNos: string[]) => Promise<void>;
    let cleanup = async () => {};
    if (mode === 'mosquitto') {
      const adminConnection = await mqtt.connectAsync(broker!.url, { username: broker!.username, password: broker!.password, clientId: `test-admin-${seq}`, reconnectPeriod: 1000 });
      const dynsec = new DynsecClient(adminConnection);
      await dynsec.start();
      await dynsec.ensure([{ command: 'removeRoleACL', rolename: liftRoleName(lifts[0]!.deviceNo), acltype: 'publishClientSend', topic: liftTopic(lifts[0]!.deviceNo, 'alarm') }]);
      grant = grantLiftRoleAcls(dynsec);
      cleanup = async () => {
        dynsec.close();
        await adminConnection.endAsync(true);
      };
    } else {
      const api = new RabbitApi(cluster!.apiUrls, cluster!.server.username, cluster!.server.password);
      const { topic } = liftPermissions(lifts[0]!.deviceNo);
      await api.request('PUT', `/api/topic-permissions/%2F/${lifts[0]!.deviceNo}`, { ...topic, write: topic.write.replace('|alarm', '') });
      grant = grantLiftTopicPermissions(api, (deviceNo, err) => {
        throw new Error(`${deviceNo}: ${String(err)}`);
      });
    }
    try {
      const before = await storedSeq(0);
      await publishThenMark(0, alarmReport(0, 50));
      expect(await storedSeq(0)).toBe(before);

      // A stop in the middle leaves the version unrecorded, so the next start does it again.
      await t.database.sql.query(`update broker_lift_rights set version = 'older' where broker = $1`, [mode]);
      expect(await upgradeLiftRights(t.database.sql, mode, grant, AbortSignal.abort())).toBe(0);
      expect(await recorded()).toBe('older');

      // The start of a version whose topic lists differ from those recorded: a second instance.
      const restarted = await buildApp({ config: t.config, database: t.database, logger: false });
      await restarted.ready();
      try {
        await until('the new start upgrades the lifts', async () => (await recorded()) === liftRightsVersion(), 30_000);
        expect(await upgradeLiftRights(t.database.sql, mode, grant)).toBe(0);
        const report = alarmReport(0, 77);
        await publishThenMark(0, report);
        await until('the report of the upgraded lift', async () => (await storedSeq(0)) === JSON.parse(report.payload).seq, 15_000);
      } finally {
        await restarted.close();
      }
    } finally {
      await cleanup();
    }
  });
});
