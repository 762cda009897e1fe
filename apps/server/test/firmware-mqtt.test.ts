import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isFirmwareTransition,
  liftTopic,
  type FirmwarePackage,
  type LiveChange,
} from '@liftlink/protocol';
import type { OtaSpec } from '../../simulator/src/firmware-updater.ts';
import { embeddedBrokerPort } from '../src/plugins/mqtt.ts';
import { FirmwareLifts } from './support/firmware-lifts.ts';
import { readyPackage as readyFirmwarePackage } from './support/firmware-packages.ts';
import { until } from './support/ports.ts';
import {
  ADMIN_PASSWORD,
  DB_KINDS,
  body,
  client,
  login,
  startTestApp,
  userWithRole,
  type TestApp,
} from './helpers.ts';

type FirmwareLive = Extract<LiveChange, { type: 'firmware' }>;
type UpdateRow = {
  state: string;
  percent: number | null;
  reason: string | null;
  version: string | null;
  package_id: string | null;
  running_version: string | null;
  report_seq: string;
};

/**
 * The whole path of an update through the broker (docs/protocol.md section 11): the server
 * sends a signed offer on `firmware/offer`, a simulated lift connected to the embedded broker
 * with its own credentials downloads from this server and reports on `firmware/state`;
 * ingest keeps each offer's state in lift_firmware_updates, tells the lift's watchers live
 * and records the version the lift runs once it is done. A lift can report only its own
 * updates; a late report changes nothing.
 */
describe.each(DB_KINDS)('firmware offers and reports over MQTT on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let brokerUrl: string;
  let makerToken: string;
  let publicKey: string;
  let versionNo = 0;
  const live: FirmwareLive[] = [];

  const readyPackage = (image: Buffer) =>
    readyFirmwarePackage(t, makerToken, `FW-4.${++versionNo}.0`, image);

  let lifts: FirmwareLifts;
  const provisionedLift = () => lifts.provision();
  const connectedLift = (ota: OtaSpec = {}) => lifts.connect({ ota });

  const updateOf = async (liftId: string, offerSeq: number) =>
    (
      await t.database.sql.query<UpdateRow>(
        `select state, percent, reason, version, package_id, running_version, report_seq::text as report_seq
           from lift_firmware_updates where lift_id = $1 and offer_seq = $2`,
        [liftId, offerSeq],
      )
    )[0];
  const firmwareOf = async (liftId: string) =>
    (
      await t.database.sql.query<{ firmware: string }>(`select firmware from lifts where id = $1`, [
        liftId,
      ])
    )[0]!.firmware;

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_MAX: '100000' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    brokerUrl = `mqtt://127.0.0.1:${embeddedBrokerPort(t.app)}`;
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const [maker] = await t.database.sql.query<{ id: string }>(
      `select id from organizations where kind = 'manufacturer' order by created_at limit 1`,
    );
    makerToken = (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, maker!.id))
      .token;
    const key = await client(t.app, makerToken).get('/manufacture/firmware/signing-key');
    expect(key.statusCode, key.body).toBe(200);
    publicKey = body<{ publicKey: string }>(key).result.publicKey;
    lifts = new FirmwareLifts(t, `FWM-${kind.toUpperCase()}`, base, publicKey);
    t.app.live.on((msg) => void (msg.type === 'firmware' && live.push(msg)));
  }, 120_000);
  afterAll(async () => {
    await lifts?.stop();
    await t?.close();
  });

  it('an offer sent to a lift ends done: its state is kept per offer, told live, and the lift runs the new version', async () => {
    const image = randomBytes(600_000);
    const pkg = await readyPackage(image);
    const l = await connectedLift({ cutDownloadAt: 0.4 });
    const offer = await t.app.firmware.send({ packageId: pkg.id, liftId: l.liftId });
    const seq = offer.manifest.seq;
    // What the cloud knows before the lift has said a word: offered.
    expect((await updateOf(l.liftId, seq))?.state).toMatch(
      /^(offered|queued|downloading|verifying)$/,
    );
    const done = await until('the update done', async () => {
      const row = await updateOf(l.liftId, seq);
      return row?.state === 'done' ? row : null;
    });
    expect(done).toMatchObject({
      version: pkg.version,
      package_id: pkg.id,
      running_version: pkg.version,
      reason: null,
    });
    expect(await firmwareOf(l.liftId)).toBe(pkg.version);
    // Watchers of the lift saw every step, in an order the protocol allows.
    const steps = live.filter((m) => m.liftId === l.liftId && m.offerSeq === seq);
    const order = steps.map((m) => m.state).filter((s, i, all) => s !== all[i - 1]);
    expect(order).toEqual([
      'queued',
      'downloading',
      'verifying',
      'installing',
      'rebooting',
      'done',
    ]);
    order.forEach((s, i) => expect(isFirmwareTransition(i ? order[i - 1]! : null, s)).toBe(true));
    expect(steps.at(-1)).toMatchObject({
      packageId: pkg.id,
      version: pkg.version,
      runningVersion: pkg.version,
      campaignId: null,
    });
    // The download was cut and resumed: its progress never went back.
    const percents = steps.filter((m) => m.state === 'downloading').map((m) => m.percent!);
    expect(percents.every((p, i) => i === 0 || p >= percents[i - 1]!)).toBe(true);
    expect(percents.at(-1)).toBe(100);
  });

  it('a corrupted image ends failed with its reason, and the lift keeps its version', async () => {
    const pkg = await readyPackage(randomBytes(200_000));
    const l = await connectedLift({ corruptImage: true });
    const { manifest } = await t.app.firmware.send({ packageId: pkg.id, liftId: l.liftId });
    const failed = await until('the update failed', async () => {
      const row = await updateOf(l.liftId, manifest.seq);
      return row?.state === 'failed' ? row : null;
    });
    expect(failed).toMatchObject({ reason: 'hashMismatch', running_version: 'FW-1.0.0' });
    expect(await firmwareOf(l.liftId)).toBe('FW-1.0.0');
  });

  it("a lift cannot report another lift's update, and a late report changes nothing", async () => {
    const pkg = await readyPackage(randomBytes(100_000));
    const victim = await connectedLift();
    const forger = await provisionedLift();
    const { manifest } = await t.app.firmware.send({ packageId: pkg.id, liftId: victim.liftId });
    await until(
      'the update done',
      async () => (await updateOf(victim.liftId, manifest.seq))?.state === 'done',
    );
    const stored = (await updateOf(victim.liftId, manifest.seq))!;

    // The forger's own credentials, on the victim's topic: the broker drops it.
    const forged = {
      seq: Number.MAX_SAFE_INTEGER - 1,
      ts: new Date().toISOString(),
      v: 1,
      offerSeq: manifest.seq,
      packageId: pkg.id,
      version: pkg.version,
      state: 'rolledBack',
      reason: 'bootFailed',
      runningVersion: 'FW-0.0.1',
    };
    const raw = await mqtt.connectAsync(brokerUrl, {
      clientId: forger.deviceNo,
      username: forger.deviceNo,
      password: forger.secret,
      clean: true,
      reconnectPeriod: 0,
    });
    // The broker refuses the publish by closing the connection: no acknowledgement ever comes.
    const closed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    raw.publish(liftTopic(victim.deviceNo, 'firmware/state'), JSON.stringify(forged), { qos: 1 });
    await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000))]);
    await raw.endAsync(true).catch(() => {});

    // A report older than the stored one (a redelivery after a broker restart), through ingest itself.
    await t.app.ingest.handle(
      liftTopic(victim.deviceNo, 'firmware/state'),
      JSON.stringify({ ...forged, seq: 1, state: 'downloading', percent: 10, reason: undefined }),
    );
    // A later message of the victim itself proves ingest has caught up past both.
    const before = Number(
      (
        await t.database.sql.query<{ n: string }>(
          `select count(*)::text as n from lift_events where lift_id = $1`,
          [victim.liftId],
        )
      )[0]!.n,
    );
    victim.fleet.lift(victim.deviceNo)!.machine.injectFault('EC');
    await until(
      'a later event stored',
      async () =>
        Number(
          (
            await t.database.sql.query<{ n: string }>(
              `select count(*)::text as n from lift_events where lift_id = $1`,
              [victim.liftId],
            )
          )[0]!.n,
        ) > before,
    );
    expect(await updateOf(victim.liftId, manifest.seq)).toEqual(stored);
    expect(await firmwareOf(victim.liftId)).toBe(pkg.version);
  });

  it('refuses an offer of a package not ready, and of another kind of lift, sending nothing', async () => {
    const maker = client(t.app, makerToken);
    const created = await maker.post('/auth/access/firmware/packages/create', {
      kinds: ['inclinedStraightRack'],
      version: `FW-4.${++versionNo}.0`,
      minVersion: 'FW-1.0.0',
      releaseNotes: {},
    });
    const pending = body<FirmwarePackage>(created).result;
    const l = await connectedLift();
    await expect(
      t.app.firmware.send({ packageId: pending.id, liftId: l.liftId }),
    ).rejects.toMatchObject({ code: 'firmware.notReady' });
    const [other] = await t.database.sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, firmware, manufacturer_org_id)
       values ($1, 'verticalHydraulic', 2, 'FW-1.0.0', (select id from organizations where kind = 'manufacturer' order by created_at limit 1)) returning id`,
      [`FWM-${kind.toUpperCase()}-VP`],
    );
    const ready = await readyPackage(randomBytes(10_000));
    await expect(
      t.app.firmware.send({ packageId: ready.id, liftId: other!.id }),
    ).rejects.toMatchObject({ code: 'firmware.notForLift' });
    const rows = await t.database.sql.query(
      `select 1 from lift_firmware_updates where lift_id in ($1, $2)`,
      [l.liftId, other!.id],
    );
    expect(rows).toEqual([]);
  });
});
