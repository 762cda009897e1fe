import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRMWARE_DEVICE_NO_HEADER, type FirmwarePackage } from '@liftlink/protocol';
import { ADMIN_PASSWORD, DB_KINDS, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { readyPackage } from './support/firmware-packages.ts';

/**
 * The image download is limited per lift, not per address (a wave of lifts behind one
 * carrier's NAT shares one): with the server's per-address limit at 20 requests a minute,
 * 25 lifts from one address all get their image, while one lift asking over and over is
 * told to wait (429) after 30 requests in a minute.
 */
describe.each(DB_KINDS)('firmware download limits on %s', (kind) => {
  let t: TestApp;
  let pkg: FirmwarePackage;

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_MAX: '20' });
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const [maker] = await t.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
    const engineer = await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, maker!.id);
    pkg = await readyPackage(t, engineer.token, 'FW-6.0.0', randomBytes(4_096));
  }, 120_000);
  afterAll(() => t?.close());

  async function offeredLift(n: number) {
    const deviceNo = `FWL-${kind.toUpperCase()}-${String(n).padStart(3, '0')}`;
    const [row] = await t.database.sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, firmware, manufacturer_org_id)
       values ($1, 'inclinedStraightRack', 2, 'FW-1.0.0', (select id from organizations where kind = 'manufacturer' order by created_at limit 1)) returning id`,
      [deviceNo],
    );
    const offer = await t.app.firmware.offer({ packageId: pkg.id, liftId: row!.id });
    return { deviceNo, url: offer.manifest.url, token: offer.token };
  }

  const download = (l: { deviceNo: string; url: string; token: string }) =>
    t.app.inject({ method: 'GET', url: l.url, headers: { authorization: `Bearer ${l.token}`, [FIRMWARE_DEVICE_NO_HEADER]: l.deviceNo } });

  it('serves 25 lifts behind one address, and holds back one lift asking too often', async () => {
    const lifts = [];
    for (let i = 1; i <= 25; i++) lifts.push(await offeredLift(i));
    const answers = await Promise.all(lifts.map(download));
    expect(answers.map((a) => a.statusCode)).toEqual(lifts.map(() => 200));
    expect(answers.every((a) => a.rawPayload.length === 4_096)).toBe(true);

    const eager = await offeredLift(99);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await download(eager)).statusCode);
    expect(statuses.slice(0, 30)).toEqual(Array.from({ length: 30 }, () => 200));
    expect(statuses[30]).toBe(429);
  });
});
