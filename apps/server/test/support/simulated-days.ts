import type { StatusMessage } from '@liftlink/protocol';
import type { SqlExecutor } from '../../src/db/client.ts';
import { storeBatch, type UplinkMessage } from '../../src/modules/ingest/store.ts';
import type { LiftMachine } from '../../../simulator/src/lift-machine.ts';

/**
 * Runs a simulator lift machine (apps/simulator) through days of use and feeds everything it
 * says to the real ingest (`storeBatch`), as its MQTT side would: its run-log entries and
 * alarm reports as they come, a status snapshot when something discrete changed, every second
 * while moving and every `idleStatusMs` at rest. Each day the lift makes `tripsPerDay` trips
 * between floor 1 and its top floor, charging fully after each, then stands `restMsPerDay`; between days the clock jumps
 * (nothing happens at night), so a month takes seconds.
 */
export interface SimulatedDaysOptions {
  sql: SqlExecutor;
  liftId: string;
  machine: LiftMachine;
  /** Start of each day's use, ms since the epoch, oldest first. */
  dayStarts: number[];
  tripsPerDay: number;
  idleStatusMs?: number;
  /** Time the lift stands after the day's trips (a flap sensor chatters while it stands), ms. */
  restMsPerDay?: number;
  /** Called before each day (e.g. to stop the alarm device's tests from some day on). */
  beforeDay?: (day: number, machine: LiftMachine) => void;
}

const BATCH = 500;

export async function simulateDays(o: SimulatedDaysOptions): Promise<number> {
  const m = o.machine;
  const idleMs = o.idleStatusMs ?? 60_000;
  let seq = Math.floor(m.now / 1000) * 1000;
  let batch: UplinkMessage[] = [];
  let sent = 0;
  let lastKey = '';
  let lastStatusAt = -Infinity;
  const flushBatch = async () => {
    if (!batch.length) return;
    const b = batch;
    batch = [];
    sent += b.length;
    await o.sql.transaction(async (tx) => {
      await storeBatch(tx, b);
    });
  };
  const tick = async (ms: number) => {
    m.advance(ms);
    const ts = new Date(m.now).toISOString();
    const outputs = m.drain();
    for (const out of outputs) {
      if (out.type === 'event') batch.push({ kind: 'event', liftId: o.liftId, message: { seq: ++seq, ts, code: out.code, ...(out.floor ? { floor: out.floor } : {}) } });
    }
    const alarm = m.alarm.takeReport();
    if (alarm) batch.push({ kind: 'alarm', liftId: o.liftId, message: { seq: ++seq, ts, ...alarm } });
    const key = m.statusKey();
    const period = m.moving ? 1_000 : idleMs;
    if (outputs.length > 0 || key !== lastKey || m.now - lastStatusAt >= period) {
      const message: StatusMessage = { seq: ++seq, ts, status: m.status() };
      batch.push({ kind: 'status', liftId: o.liftId, message });
      lastKey = key;
      lastStatusAt = m.now;
    }
    if (batch.length >= BATCH) await flushBatch();
  };
  /** Ticks as the fleet clock does (200 ms while something moves, else a second) until `done` or `maxMs`. */
  const runUntil = async (done: () => boolean, maxMs: number) => {
    for (let t = 0; t < maxMs && !done(); ) {
      const step = m.moving ? 200 : 1_000;
      await tick(step);
      t += step;
    }
  };

  for (const [i, start] of o.dayStarts.entries()) {
    o.beforeDay?.(i, m);
    if (start > m.now) m.now = start;
    for (let trip = 0; trip < o.tripsPerDay; trip++) {
      const target = m.status().floor === 1 ? m.floors : 1;
      // a call the lift does not take (a flap sensor blipping) is pressed again a second later
      await runUntil(() => m.callLocal(target), 5 * 60_000);
      await runUntil(() => m.status().floor === target && !m.moving, 10 * 60_000);
      await runUntil(() => !m.status().platform.charging, 3 * 3_600_000);
      await runUntil(() => false, 30_000);
    }
    await runUntil(() => false, o.restMsPerDay ?? 0);
  }
  await flushBatch();
  return sent;
}
