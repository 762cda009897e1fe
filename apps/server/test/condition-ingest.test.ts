import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiftStatus, StatusMessage } from '@liftlink/protocol';
import { LiftMachine } from '../../simulator/src/lift-machine.ts';
import { storeBatch, type UplinkMessage } from '../src/modules/ingest/store.ts';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { DB_KINDS, startTestApp, type TestApp } from './helpers.ts';

/**
 * The condition figures through the real ingest, batch by batch, as a broker delivers them:
 * a trip that starts in one batch and ends in the next is counted once, from the state the
 * lift's row carried between them, and statuses delivered again (after an instance died
 * before its acknowledgement) change no figure.
 */
describe.each(DB_KINDS)('condition figures across batches on %s', (kind) => {
  let t: TestApp;
  let liftId: string;
  const day = new Date().toISOString().slice(0, 10);
  const base = new LiftMachine({ deviceNo: 'COND-1', kind: 'inclinedStraightRack', floors: 2, now: Date.now() }).status();

  /** A status `second`s into today (UTC): standing at a floor, or moving between them, on a charging node or not. */
  const status = (seq: number, second: number, o: { floor: LiftStatus['floor']; moving: boolean; voltage: number; charger: boolean }): UplinkMessage => {
    const s: LiftStatus = structuredClone(base);
    s.floor = o.floor;
    s.platform.movement = o.moving ? 'rise' : 'stop';
    s.platform.voltage = o.voltage;
    s.platform.chargeValue = o.charger ? { real: 27, check: 25.65 } : { real: 0, check: 0 };
    const message: StatusMessage = { seq, ts: new Date(Date.parse(`${day}T00:00:00Z`) + second * 1000).toISOString(), status: s };
    return { kind: 'status', liftId, message };
  };
  const store = (batch: UplinkMessage[]) => t.database.sql.transaction((tx) => storeBatch(tx, batch));
  const figures = async () =>
    (
      await t.database.sql.query<{ trips: number; sag_n: number; sag_sum: number; charge_ratio_n: number }>(
        `select trips, sag_n, sag_sum, charge_ratio_n from lift_condition_daily where lift_id = $1 and day = $2`,
        [liftId, day],
      )
    )[0];

  beforeAll(async () => {
    t = await startTestApp(kind);
    liftId = (await ensureDemoFleet(t.database.sql, 1))[0]!.id;
  });
  afterAll(() => t.close());

  it('counts a trip spanning two batches once, and nothing again when the statuses come a second time', async () => {
    const atRest = status(1, 0, { floor: 1, moving: false, voltage: 25.2, charger: true });
    const leaving = status(2, 65, { floor: null, moving: true, voltage: 24.4, charger: false });
    const lowest = status(3, 68, { floor: null, moving: true, voltage: 24.1, charger: false });
    const arrived = status(4, 130, { floor: 2, moving: false, voltage: 25.0, charger: true });

    await store([atRest, leaving]);
    expect(await figures()).toMatchObject({ trips: 0, charge_ratio_n: 1 });

    await store([lowest, arrived]);
    const once = await figures();
    expect(once).toMatchObject({ trips: 1, sag_n: 1, charge_ratio_n: 2 });
    expect(once!.sag_sum).toBeCloseTo(1.1, 3);

    // the same statuses again, alone and mixed with the next one: only the new one counts
    await store([leaving, lowest, arrived]);
    await store([arrived, status(5, 190, { floor: 2, moving: false, voltage: 25.0, charger: true })]);
    const again = await figures();
    expect(again).toMatchObject({ trips: 1, sag_n: 1, charge_ratio_n: 3 });
    expect(again!.sag_sum).toBeCloseTo(1.1, 3);
  });

  it('samples the charge ratio once a minute, however often the lift reports', async () => {
    // five more reports in the minute of the last one (00:03), then one in the next minute
    for (let i = 0; i < 5; i++) await store([status(6 + i, 200 + 5 * i, { floor: 2, moving: false, voltage: 25.0, charger: true })]);
    expect(await figures()).toMatchObject({ charge_ratio_n: 3 });
    await store([status(11, 245, { floor: 2, moving: false, voltage: 25.0, charger: true })]);
    expect(await figures()).toMatchObject({ charge_ratio_n: 4 });
  });

  it('a lift standing and repeating itself keeps the trip under way from before it', async () => {
    // leaves floor 2, then its statuses repeat (same values) across several batches before it arrives
    await store([status(12, 300, { floor: null, moving: true, voltage: 24.3, charger: false })]);
    for (let i = 0; i < 3; i++) await store([status(13 + i, 302 + i, { floor: null, moving: true, voltage: 24.3, charger: false })]);
    await store([status(16, 310, { floor: 1, moving: false, voltage: 25.1, charger: false })]);
    const after = await figures();
    expect(after).toMatchObject({ trips: 2, sag_n: 2 });
    // rest voltage 25.0 at floor 2, lowest 24.3 on the way: a sag of 0.7 added to the first trip's 1.1
    expect(after!.sag_sum).toBeCloseTo(1.8, 3);
  });
});
