import { defaultConfig, initialLiftStatus, type DeviceKind, type EventCode, type FaultCode, type LiftStatus } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { storeBatch, type UplinkMessage } from '../ingest/store.ts';
import { prepareDemoAvailability } from '../availability/demo.ts';
import { endHistoricIncident } from '../incidents/history.ts';
// The server runs the simulator from its sources (demo-fleet.ts): the same small generator.
import { seededRandom } from '../../../../simulator/src/random.ts';

/**
 * The history of a new demo lift: `days` days of what a lift in use says, fed through
 * ingest's own `storeBatch` (the same run log, figures, alerts, configurations and command
 * answers as live data). Trips follow a weekly rhythm (fewer at weekends, most in the
 * morning and evening of the site's time zone); a few faults each cleared by the
 * administrator's restart, a few offline spells, configuration changes and summons sent by
 * the administrator. The randomness is seeded by the device number: the same lift gets the
 * same history. The administrator's part is marked `demo` in the operation log.
 */

export interface DemoHistoryLift {
  id: string;
  deviceNo: string;
  kind: DeviceKind;
  floors: number;
  /** Hours the site's clock is ahead of UTC (the rhythm of its day). */
  utcOffsetHours: number;
}

/** Messages per transaction: a first start stays quick and other work is not held up long. */
const BATCH_SIZE = 500;
const HOUR = 3_600_000;
const MIN = 60_000;
/** Share of a day's trips per local hour: night quiet, peaks in the morning and the evening. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 1, 3, 8, 10, 6, 4, 4, 5, 4, 4, 5, 6, 9, 10, 6, 4, 3, 1, 0];
const HOUR_WEIGHT_SUM = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
const HISTORY_FAULTS: FaultCode[] = ['EA', 'EB', 'EC', 'ED', 'EE'];

/** The simulator's seeded generator, seeded by the device number. */
function randomFor(deviceNo: string): () => number {
  let seed = 0;
  for (const ch of deviceNo) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
  return seededRandom(seed);
}

/** A command the administrator sent: its row and operation-log entry are written with the history. */
interface DemoCommand {
  id: string;
  kind: 'cmd' | 'config/set';
  name: string;
  args: Record<string, unknown>;
  at: number;
}

/** A fault and when the administrator's restart cleared it (its alert gets these times). */
interface DemoFault {
  code: FaultCode;
  at: number;
  clearedAt: number;
}

interface LiftHistory {
  /** Groups of messages in time order; a group with a presence message is stored on its own. */
  groups: UplinkMessage[][];
  commands: DemoCommand[];
  faults: DemoFault[];
}

/** One lift's history from `from` to `to` (ms). Seqs are milliseconds × 1000, like a lift's, so they stay below the live ones. */
export function buildHistory(lift: DemoHistoryLift, from: number, to: number): LiftHistory {
  const random = randomFor(lift.deviceNo);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (a: number, b: number) => a + Math.floor(random() * (b - a));
  let lastSeq = 0;
  const seqAt = (t: number) => (lastSeq = Math.max(lastSeq + 1, t * 1000));
  const iso = (t: number) => new Date(t).toISOString();
  const liftId = lift.id;
  const groups: UplinkMessage[][] = [];
  let group: UplinkMessage[] = [];
  const flush = () => {
    if (group.length) groups.push(group);
    group = [];
  };
  const event = (t: number, code: EventCode) => group.push({ kind: 'event', liftId, message: { seq: seqAt(t), ts: iso(t), code } });
  const status = (t: number, floor: number, faults: FaultCode[]) => {
    const s: LiftStatus = { ...initialLiftStatus(floor), faults };
    group.push({ kind: 'status', liftId, message: { seq: seqAt(t), ts: iso(t), status: s } });
  };
  let session = 0;
  const online = (t: number) => {
    flush();
    session = seqAt(t);
    groups.push([{ kind: 'presence', liftId, message: { seq: session, ts: iso(t), online: true, session, firmware: '1.0.0' } }]);
  };
  const ack = (t: number, commandId: string) => {
    group.push({ kind: 'cmd/ack', liftId, message: { seq: seqAt(t), ts: iso(t), commandId, state: 'accepted' } });
    group.push({ kind: 'cmd/ack', liftId, message: { seq: seqAt(t + 500), ts: iso(t + 500), commandId, state: 'done' } });
  };

  // What happens besides trips, at random daytime hours of the site (never two in neighbouring hours).
  const span = to - from;
  const taken = new Set<number>();
  // Ends at least 8 hours before `to`: an offline spell or a fault's clearing is over by then.
  const slot = (): number => {
    for (;;) {
      const t = from + 2 * HOUR + Math.floor(random() * (span - 10 * HOUR));
      const hour = Math.floor(t / HOUR);
      const localHour = new Date(t + lift.utcOffsetHours * HOUR).getUTCHours();
      if (localHour >= 7 && localHour < 21 && ![hour - 1, hour, hour + 1].some((h) => taken.has(h))) {
        taken.add(hour);
        return t;
      }
    }
  };
  type Happening = { at: number; what: 'fault' | 'offline' | 'config' | 'summon' };
  const happenings: Happening[] = [
    ...Array.from({ length: between(2, 5) }, () => ({ at: slot(), what: 'fault' as const })),
    ...Array.from({ length: between(1, 4) }, () => ({ at: slot(), what: 'offline' as const })),
    ...Array.from({ length: between(1, 3) }, () => ({ at: slot(), what: 'config' as const })),
    ...Array.from({ length: between(2, 5) }, () => ({ at: slot(), what: 'summon' as const })),
  ].sort((a, b) => a.at - b.at);

  const commands: DemoCommand[] = [];
  const faults: DemoFault[] = [];
  let floor = 1;
  let version = 0;
  let config = defaultConfig(lift.kind, lift.floors);
  const command = (at: number, kind: DemoCommand['kind'], name: string, args: Record<string, unknown>) => {
    const id = `demo${lift.deviceNo.replace(/\W/g, '')}${commands.length}${Math.floor(random() * 1e6)}`.slice(0, 22);
    commands.push({ id, kind, name, args, at });
    return id;
  };
  let lastEnd = 0;
  const trip = (at: number, target: number, local: boolean) => {
    const t = Math.max(at, lastEnd + 5_000);
    event(t, `${local ? 'RZM' : 'RZY'}${target}` as EventCode);
    event(t + 2_000, target > floor ? 'RZGU' : 'RZGD');
    lastEnd = t + between(30_000, 70_000);
    event(lastEnd, `RZD${target}` as EventCode);
    floor = target;
  };
  const otherFloor = () => {
    const others = Array.from({ length: lift.floors }, (_, i) => i + 1).filter((f) => f !== floor);
    return pick(others);
  };

  // Connected at the start, with its factory configuration.
  online(from);
  group.push({ kind: 'config/report', liftId, message: { seq: seqAt(from + 1_000), ts: iso(from + 1_000), version, config } });
  status(from + 2_000, floor, []);

  const busy = 0.6 + random() * 0.8;
  let next = 0;
  let quietUntil = 0;
  for (let hour = Math.ceil(from / HOUR) * HOUR; hour < to - HOUR; hour += HOUR) {
    const local = new Date(hour + lift.utcOffsetHours * HOUR);
    const weekend = local.getUTCDay() === 0 || local.getUTCDay() === 6;
    const perDay = 55 * busy * (weekend ? 0.45 : 1);
    const expected = (perDay * HOUR_WEIGHTS[local.getUTCHours()]!) / HOUR_WEIGHT_SUM;
    const trips = Math.floor(expected + random());
    const times = Array.from({ length: trips }, () => hour + Math.floor(random() * (HOUR - 2 * MIN))).sort((a, b) => a - b);
    for (const t of times) if (t >= quietUntil && lift.floors > 1) trip(t, otherFloor(), true);
    for (; next < happenings.length && happenings[next]!.at < hour + HOUR; next++) {
      const h = happenings[next]!;
      const t = Math.max(h.at, lastEnd + 5_000, quietUntil);
      if (h.what === 'fault') {
        const code = pick(HISTORY_FAULTS);
        event(t, code);
        status(t + 500, floor, [code]);
        const clearedAt = t + between(10 * MIN, 50 * MIN);
        const id = command(clearedAt - 1_000, 'cmd', 'restart', {});
        ack(clearedAt - 500, id);
        event(clearedAt, 'RZOP');
        status(clearedAt + 500, floor, []);
        faults.push({ code, at: t, clearedAt });
        quietUntil = clearedAt + MIN;
      } else if (h.what === 'offline') {
        flush();
        groups.push([{ kind: 'disconnect', liftId, at: new Date(t) }]);
        quietUntil = t + between(20 * MIN, 6 * HOUR);
        online(quietUntil);
      } else if (h.what === 'config') {
        const rapidSpeed = Math.max(40, Math.min(Number(config.speedLimit), Number(config.rapidSpeed) + (random() < 0.5 ? -10 : 10)));
        config = { ...config, rapidSpeed };
        version++;
        const id = command(t, 'config/set', 'configSet', { version });
        ack(t + 500, id);
        group.push({ kind: 'config/report', liftId, message: { seq: seqAt(t + 1_500), ts: iso(t + 1_500), version, config, commandId: id } });
        quietUntil = t + 2_000;
      } else if (lift.floors > 1) {
        const target = otherFloor();
        const id = command(t, 'cmd', 'summon', { floor: target });
        ack(t + 300, id);
        trip(t + 400, target, false);
        quietUntil = t + 2 * MIN;
      }
    }
  }
  status(to - MIN, floor, []);
  // It says goodbye where the history ends: a demo lift is online only while the simulator runs it.
  flush();
  groups.push([{ kind: 'presence', liftId, message: { seq: seqAt(to - 1_000), ts: iso(to - 1_000), online: false, session } }]);
  return { groups, commands, faults };
}

/** The groups cut into batches of about BATCH_SIZE messages; a presence message is a batch of its own (it is applied after the batch's events). */
function toBatches(groups: UplinkMessage[][]): UplinkMessage[][] {
  const batches: UplinkMessage[][] = [];
  let batch: UplinkMessage[] = [];
  for (const g of groups) {
    const alone = g.some((m) => m.kind === 'presence' || m.kind === 'disconnect');
    if (alone || batch.length + g.length > BATCH_SIZE) {
      if (batch.length) batches.push(batch);
      batch = [];
    }
    if (alone) batches.push(g);
    else batch.push(...g);
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * Writes `days` days of history for each of these (new) demo lifts, ending now. The
 * commands are the first administrator's, written before their answers are stored; each
 * fault's alert gets the fault's time and is cleared when the restart cleared the fault
 * (and is not mailed: it is history). The months before get availability figures
 * (availability/demo.ts). Returns how many messages were stored.
 */
export async function backfillDemoHistory(sql: SqlExecutor, lifts: DemoHistoryLift[], days: number, now = Date.now()): Promise<number> {
  if (days <= 0 || !lifts.length) return 0;
  const [admin] = await sql.query<{ id: string; username: string }>(`select id, username from users order by created_at limit 1`);
  const from = now - days * 24 * HOUR;
  let stored = 0;
  for (const lift of lifts) {
    const history = buildHistory(lift, from, now);
    await sql.transaction(async (tx) => {
      for (const c of history.commands) {
        const at = new Date(c.at);
        await tx.query(
          `insert into lift_commands (id, lift_id, kind, name, args, state, user_id, username, created_at, updated_at, expires_at)
           values ($1, $2, $3, $4, $5::jsonb, 'sent', $6, $7, $8, $8, $9)`,
          [c.id, lift.id, c.kind, c.name, JSON.stringify(c.args), admin?.id ?? null, admin?.username ?? null, at, new Date(c.at + 15_000)],
        );
        await tx.query(
          `insert into audit_log (ts, action, result, user_id, username, target_type, target_id, lift_id, detail) values ($1, $2, 'done', $3, $4, 'lift', $5, $6, $7::jsonb)`,
          [at, c.kind === 'cmd' ? 'lift.command' : 'lift.configure', admin?.id ?? null, admin?.username ?? null, lift.deviceNo, lift.id, JSON.stringify({ name: c.name, args: c.args, reason: null, demo: true })],
        );
      }
    });
    // Months of availability figures before it, and its availability counted from the history's start.
    await prepareDemoAvailability(sql, lift, from);
    for (const batch of toBatches(history.groups)) {
      await sql.transaction(async (tx) => {
        await storeBatch(tx, batch);
        const faults = history.faults.filter((f) => batch.some((m) => m.kind === 'event' && m.message.code === f.code && Date.parse(m.message.ts) === f.at));
        for (const f of faults) {
          const [alert] = await tx.query<{ id: string }>(
            `update alerts set raised_at = $3, cleared_at = $4 where lift_id = $1 and kind = 'fault' and code = $2 and cleared_at is null and acknowledged_at is null returning id`,
            [lift.id, f.code, new Date(f.at), new Date(f.clearedAt)],
          );
          if (alert) await tx.query(`delete from alert_deliveries where alert_id = $1`, [alert.id]);
          // The incident it opened ends with it: history, not work waiting for a technician.
          await endHistoricIncident(tx, lift.id, f.code, { opened: new Date(f.at), ended: new Date(f.clearedAt) }, { userId: admin?.id ?? null, name: admin?.username ?? null }, 'Demo history: cleared by a restart');
        }
      });
      stored += batch.length;
    }
    await sql.query(`update lift_commands set updated_at = created_at + interval '1 second' where lift_id = $1 and id = any($2::text[])`, [lift.id, history.commands.map((c) => c.id)]);
  }
  return stored;
}
