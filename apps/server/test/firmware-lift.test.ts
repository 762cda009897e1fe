import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firmwareStateMessageSchema,
  type FirmwareStateMessage,
} from '@liftlink/protocol';
import { FirmwareUpdater, type OtaFaults } from '../../simulator/src/firmware-updater.ts';
import { LiftMachine } from '../../simulator/src/lift-machine.ts';
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
import { readyPackage as readyFirmwarePackage } from './support/firmware-packages.ts';

/**
 * The lift's side of an update (the simulator's FirmwareUpdater, docs/protocol.md 11) against
 * this server's real signing key, offer and ranged download route: what a lift in the field
 * gets from the cloud verifies, downloads, resumes and installs; what is wrong stays out.
 */
describe.each(DB_KINDS)('a lift updates its firmware from the server on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let makerToken: string;
  let publicKey: string;
  let liftNo = 0;
  let versionNo = 0;
  const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  /** A package of the seeded manufacturer with `image` uploaded, for inclined rack lifts over FW-1.0.0. */
  const readyPackage = (image: Buffer) =>
    readyFirmwarePackage(t, makerToken, `FW-3.${++versionNo}.0`, image);

  /** A lift of the manufacturer in the database and its simulated controller with the trusted key. */
  async function lift(faults: OtaFaults = {}) {
    const deviceNo = `FWL-${kind.toUpperCase()}-${++liftNo}`;
    const [row] = await t.database.sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, firmware, manufacturer_org_id)
       values ($1, 'inclinedStraightRack', 2, 'FW-1.0.0', (select id from organizations where kind = 'manufacturer' order by created_at limit 1))
       returning id`,
      [deviceNo],
    );
    const machine = new LiftMachine({
      deviceNo,
      kind: 'inclinedStraightRack',
      floors: 2,
      now: Date.now(),
      firmware: 'FW-1.0.0',
    });
    const reports: FirmwareStateMessage[] = [];
    const updater = new FirmwareUpdater({
      lift: machine,
      trustedKeys: [publicKey],
      downloadBase: base,
      faults,
      waitScale: 0.001,
      report: (report) =>
        void reports.push(
          firmwareStateMessageSchema.parse({
            seq: reports.length + 1,
            ts: new Date().toISOString(),
            ...report,
          }),
        ),
    });
    return { liftId: row!.id, deviceNo, machine, updater, reports };
  }

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_MAX: '100000' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const [maker] = await t.database.sql.query<{ id: string }>(
      `select id from organizations where kind = 'manufacturer' order by created_at limit 1`,
    );
    // The built-in manufacturer engineer: firmware packages and the bench's signing key.
    makerToken = (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, maker!.id))
      .token;
    // What the factory bench writes into each lift: the manufacturer's public key.
    const key = await client(t.app, makerToken).get('/manufacture/firmware/signing-key');
    expect(key.statusCode, key.body).toBe(200);
    publicKey = body<{ publicKey: string }>(key).result.publicKey;
  }, 120_000);
  afterAll(() => t?.close());

  it('a download cut halfway resumes from the server and the lift runs the new version', async () => {
    const image = randomBytes(700_000);
    const pkg = await readyPackage(image);
    const l = await lift({ cutDownloadAt: 0.5 });
    const offer = await t.app.firmware.offer({ packageId: pkg.id, liftId: l.liftId });
    await l.updater.receive(offer.envelope);
    await l.updater.settled();
    const states = l.reports.map((r) => r.state);
    expect(states.at(-1), JSON.stringify(l.reports.at(-1))).toBe('done');
    expect(states).toContain('verifying');
    // the download went on from where it was cut: its progress never went back
    const bytes = l.reports.filter((r) => r.state === 'downloading').map((r) => r.bytes ?? 0);
    expect(bytes.at(-1)).toBe(image.length);
    expect(bytes.every((b, i) => i === 0 || b >= bytes[i - 1]!)).toBe(true);
    expect(l.machine.firmware).toBe(pkg.version);
    expect(pkg.sha256).toBe(sha(image));
    await l.updater.stop();
  });

  it('a corrupted image fails its hash check and the lift stays on its firmware', async () => {
    const pkg = await readyPackage(randomBytes(300_000));
    const l = await lift({ corruptImage: true });
    const offer = await t.app.firmware.offer({ packageId: pkg.id, liftId: l.liftId });
    await l.updater.receive(offer.envelope);
    await l.updater.settled();
    expect(l.reports.at(-1)).toMatchObject({ state: 'failed', reason: 'hashMismatch' });
    expect(l.machine.firmware).toBe('FW-1.0.0');
    await l.updater.stop();
  });

  it("another lift's offer is refused by the lift, and its token by the server", async () => {
    const pkg = await readyPackage(randomBytes(100_000));
    const owner = await lift();
    const other = await lift();
    const offer = await t.app.firmware.offer({ packageId: pkg.id, liftId: owner.liftId });
    await other.updater.receive(offer.envelope);
    await other.updater.settled();
    expect(other.reports.at(-1)).toMatchObject({ state: 'failed', reason: 'wrongLift' });
    expect(other.reports.some((r) => r.state === 'downloading')).toBe(false);
    // Presented by the other lift anyway, the token opens nothing.
    const stolen = await fetch(new URL(offer.manifest.url, base), {
      headers: { authorization: `Bearer ${offer.token}`, 'x-device-no': other.deviceNo },
    });
    expect(stolen.status).toBe(401);
    await owner.updater.stop();
    await other.updater.stop();
  });

  it('a package withdrawn after the offer is refused at the download and the lift says so', async () => {
    const pkg = await readyPackage(randomBytes(100_000));
    const l = await lift();
    const offer = await t.app.firmware.offer({ packageId: pkg.id, liftId: l.liftId });
    const withdrawn = await client(t.app, makerToken).post(
      '/auth/access/firmware/packages/withdraw',
      { id: pkg.id },
    );
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    await l.updater.receive(offer.envelope);
    await l.updater.settled();
    expect(l.reports.at(-1)).toMatchObject({ state: 'failed', reason: 'withdrawn' });
    expect(l.machine.firmware).toBe('FW-1.0.0');
    await l.updater.stop();
  });
});
