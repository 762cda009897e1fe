import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialLiftStatus, type AvailabilityReport, type FaultCode, type SystemMode } from '@liftlink/protocol';
import { bookOpenIntervals } from '../src/modules/availability/book.ts';
import { availabilityForOrgs } from '../src/modules/availability/repository.ts';
import { storeBatch, type UplinkMessage } from '../src/modules/ingest/store.ts';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { backfillDemoHistory } from '../src/modules/lifts/demo-history.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const monthOf = (t: number) => new Date(t).toISOString().slice(0, 7);

/**
 * Availability figures (docs/insight.md) from a made-up history of lift DEMO-0001 (operator
 * "Ops", site "North") fed through ingest's own store with the history's times, across the
 * boundary B between the month before last (M1) and last month (M2). Its states, hour by hour:
 *
 *   B-10h offline (registered) · B-8h online, in service · B-7h, B-6h trips · B-6h fault EC
 *   · B-5h cleared · B-4h lockout · B-3h normal · B-2h emergency · B-1h30 normal
 *   · maintenance windows [B-1h, B+1h) and [B-30m, B+15m) · B+30m connection lost · B+2h online
 *   · B+3h trip · B+5h disabled · B+6h normal, in service since.
 *
 * M1 (its last 10 h): offline 2h, inService 2h+1h+1h+30m, faulted 1h, locked 1h, stopped 30m,
 * maintenance 1h (the overlapping windows count once); 1 failure, 2 trips.
 * M2: maintenance 30m in service + 30m offline, offline 1h, inService 3h + the rest of the
 * month from B+6h, disabled 1h; 1 trip. This month: in service up to now.
 */
describe.each(DB_KINDS)('availability figures on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let opsId: string;
  let farId: string;
  let liftId: string;
  let farLiftId: string;
  let op: { token: string };
  let far: { token: string };
  const now = new Date();
  const M3 = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const B = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const M1 = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1);
  const [m1, m2, m3] = [monthOf(M1), monthOf(B), monthOf(M3)];
  const store = (m: UplinkMessage) => t.database.sql.transaction((tx) => storeBatch(tx, [m]));
  const seqOf = (at: number) => at * 1000;
  const status = (at: number, mode: SystemMode, faults: FaultCode[] = []) =>
    store({ kind: 'status', liftId, message: { seq: seqOf(at), ts: new Date(at).toISOString(), status: { ...initialLiftStatus(1), mode, faults } } });
  const event = (at: number, code: string) => store({ kind: 'event', liftId, message: { seq: seqOf(at), ts: new Date(at).toISOString(), code } as never });
  const online = (at: number) => store({ kind: 'presence', liftId, message: { seq: seqOf(at), ts: new Date(at).toISOString(), online: true, session: seqOf(at) } });
  const report = async (token: string, query: string) => body<AvailabilityReport>(await client(t.app, token).get(`/auth/access/dashboard/availability?${query}`));

  beforeAll(async () => {
    t = await startTestApp(kind);
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    const [a, b] = await ensureDemoFleet(t.database.sql, 2);
    liftId = a!.id;
    farLiftId = b!.id;
    opsId = body(await admin.post('/auth/access/system/orgs/create', { name: `Ops ${kind}`, kind: 'operator' })).result.id;
    farId = body(await admin.post('/auth/access/system/orgs/create', { name: `Elsewhere ${kind}`, kind: 'operator' })).result.id;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: opsId, liftIds: [liftId] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: farId, liftIds: [farLiftId] });
    op = await userWithRole(t, adminToken, 'operator', `op-${kind}`, opsId);
    far = await userWithRole(t, adminToken, 'operator', `far-${kind}`, farId);
    const sql = t.database.sql;
    // The lift was registered at B-10h (offline), at site North.
    await sql.query(`update lifts set avail_since = $2, location = '{"site":"North"}'::jsonb where id = $1`, [liftId, new Date(B - 10 * HOUR)]);
    for (const [from, to] of [
      [B - HOUR, B + HOUR],
      [B - 30 * MIN, B + 15 * MIN],
    ] as const) {
      const [w] = await sql.query<{ id: string }>(
        `insert into maintenance_windows (starts_at, ends_at, reason, declared_by_name, start_logged, end_logged) values ($1, $2, 'service', 'admin', true, true) returning id`,
        [new Date(from), new Date(to)],
      );
      await sql.query(`insert into maintenance_window_lifts (window_id, lift_id) values ($1, $2)`, [w!.id, liftId]);
    }

    await online(B - 8 * HOUR);
    await status(B - 8 * HOUR + 1000, 'normal');
    await event(B - 7 * HOUR, 'RZGU');
    await event(B - 6 * HOUR - MIN, 'RZGD');
    await event(B - 6 * HOUR, 'EC');
    await status(B - 6 * HOUR + 1, 'normal', ['EC']);
    await status(B - 5 * HOUR + 1, 'normal');
    await status(B - 4 * HOUR + 1, 'lockout');
    await status(B - 3 * HOUR + 1, 'normal');
    await status(B - 2 * HOUR + 1, 'emergency');
    await status(B - 90 * MIN + 1, 'normal');
    await store({ kind: 'disconnect', liftId, at: new Date(B + 30 * MIN + 1) });
    await online(B + 2 * HOUR + 1);
    await event(B + 3 * HOUR, 'RZGU');
    await status(B + 5 * HOUR + 1, 'disabled');
    await status(B + 6 * HOUR + 1, 'normal');
  }, 120_000);
  afterAll(() => t.close());

  /** The history's hand-computed times (the +1 ms of most messages' times shifts those edges by 1 ms). */
  const expectedM1 = { offline: 2 * HOUR, inService: 4.5 * HOUR, faulted: HOUR, locked: HOUR, stopped: 30 * MIN, disabled: 0, maintenance: HOUR };
  const expectedM2 = (monthMs: number) => ({ maintenance: HOUR, offline: HOUR + 1, inService: monthMs - 3 * HOUR - 1, disabled: HOUR, faulted: 0, locked: 0, stopped: 0 });

  it('books every state of the history into its UTC month, maintenance first, and counts trips and failures', async () => {
    const asOf = new Date();
    const r = await availabilityForOrgs(t.database.sql, [opsId], { level: 'lift', liftId, from: m1, to: m3 }, asOf);
    const [r1, r2, r3] = r.months;
    expect(r.months.map((m) => m.month)).toEqual([m1, m2, m3]);
    expect(r1!.figures.times).toEqual(expectedM1);
    expect(r1!.figures).toMatchObject({ trips: 2, failures: 1, availability: 0.5, mtbf: 4.5 * HOUR });
    expect(r2!.figures.times).toEqual(expectedM2(M3 - B));
    expect(r2!.figures).toMatchObject({ trips: 1, failures: 0, mtbf: null });
    expect(r2!.figures.availability).toBeCloseTo((M3 - B - 3 * HOUR - 1) / (M3 - B - HOUR), 12);
    // This month: in service from its first moment up to now, counted live.
    expect(r3!.figures.times.inService).toBe(asOf.getTime() - M3);
    expect(r3!.figures.availability).toBe(1);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ key: liftId, name: expect.any(String), lifts: 1 });
    expect(r.rows[0]!.figures.trips).toBe(3);
    expect(r.total.times.faulted).toBe(HOUR);
    expect(r.asOf).toBe(asOf.toISOString());
  });

  it('counts incidents opened, acknowledged and resolved, with their mean times', async () => {
    const api = client(t.app, (await login(t.app, 'admin', ADMIN_PASSWORD)));
    const incident = body(await api.post('/auth/access/incidents/create', { liftId, title: 'Door sticks' })).result;
    expect(body(await api.post('/auth/access/incidents/transition', { id: incident.id, to: 'acknowledged' })).success).toBe(true);
    const resolved = await api.post('/auth/access/incidents/transition', { id: incident.id, to: 'resolved', rootCause: 'wornPart', resolutionText: 'Replaced the roller' });
    expect(body(resolved).success).toBe(true);
    const steps = await t.database.sql.query<{ to_state: string; at: Date }>(`select to_state, at from incident_steps where incident_id = $1 order by id`, [incident.id]);
    const at = (s: string) => new Date(steps.find((x) => x.to_state === s)!.at).getTime();
    const opened = new Date(incident.openedAt).getTime();
    // The fault EC of the history opened one incident too (now, when ingest stored it).
    const faultIncidents = await t.database.sql.query(`select 1 from incidents where lift_id = $1 and cause = 'fault'`, [liftId]);
    expect(faultIncidents).toHaveLength(1);

    const r = await report(op.token, `level=lift&liftId=${liftId}&from=${m3}&to=${m3}`);
    expect(r.success).toBe(true);
    const f = r.result.total;
    expect(f.incidents).toBe(2);
    // The database keeps microseconds, the answer milliseconds: within a millisecond.
    expect(Math.abs(f.mtta! - (at('acknowledged') - opened))).toBeLessThanOrEqual(1);
    expect(Math.abs(f.mttr! - (at('resolved') - opened))).toBeLessThanOrEqual(1);
    expect(f.mttr!).toBeGreaterThanOrEqual(f.mtta!);
  });

  it('sums lifts per organization, site and lift within the caller’s scope', async () => {
    const orgs = (await report(op.token, `level=orgs&from=${m1}&to=${m2}`)).result;
    expect(orgs.rows.map((r) => [r.key, r.lifts])).toEqual([[opsId, 1]]);
    expect(orgs.rows[0]!.figures.times).toEqual(orgs.total.times);
    expect(orgs.total.times.stopped).toBe(30 * MIN);
    expect(orgs.total.trips).toBe(3);
    expect(orgs.months.map((m) => m.figures.times.locked)).toEqual([HOUR, 0]);
    const sites = (await report(op.token, `level=sites&orgId=${opsId}&from=${m1}&to=${m2}`)).result;
    expect(sites.rows.map((r) => [r.key, r.name, r.lifts])).toEqual([['North', 'North', 1]]);
    const lifts = (await report(op.token, `level=lifts&orgId=${opsId}&site=North&from=${m1}&to=${m2}`)).result;
    expect(lifts.rows.map((r) => r.key)).toEqual([liftId]);
    expect(lifts.rows[0]!.figures.failures).toBe(1);

    // The administrator sees every organization: the lift counts for its maker and its operator, the total once.
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const all = (await report(adminToken, `level=orgs&from=${m1}&to=${m2}`)).result;
    const [maker] = await t.database.sql.query<{ manufacturer_org_id: string }>(`select manufacturer_org_id from lifts where id = $1`, [liftId]);
    const tripsOf = Object.fromEntries(all.rows.map((r) => [r.key, r.figures.trips]));
    expect(tripsOf).toEqual({ [maker!.manufacturer_org_id]: 3, [opsId]: 3, [farId]: 0 });
    expect(all.total.trips).toBe(3);
    expect(all.total.times.stopped).toBe(30 * MIN);

    // Another organization's operator sees nothing of it.
    const theirs = (await report(far.token, `level=orgs&from=${m1}&to=${m2}`)).result;
    expect(theirs.rows.map((r) => r.key)).toEqual([farId]);
    expect(theirs.total.trips).toBe(0);
    expect(theirs.total.failures).toBe(0);
    expect((await report(far.token, `level=sites&orgId=${opsId}&from=${m1}&to=${m2}`)).code).toBe('org.notFound');
    expect((await report(far.token, `level=lift&liftId=${liftId}&from=${m1}&to=${m2}`)).code).toBe('lift.notFound');
  });

  it('refuses a bad query with translated validation codes', async () => {
    const bad = await client(t.app, op.token).get(`/auth/access/dashboard/availability?level=orgs&from=${m2}&to=${m1}`);
    expect(bad.statusCode).toBe(400);
    expect(body(bad).result.issues).toContainEqual({ path: 'querystring.to', message: 'validation.monthOrder' });
    const notMonth = body(await client(t.app, op.token).get(`/auth/access/dashboard/availability?level=orgs&from=2026-13&to=${m1}`));
    expect(notMonth.result.issues).toContainEqual({ path: 'querystring.from', message: 'validation.month' });
    const tooLong = body(await client(t.app, op.token).get(`/auth/access/dashboard/availability?level=orgs&from=2020-01&to=2022-01`));
    expect(tooLong.result.issues).toContainEqual({ path: 'querystring.to', message: 'validation.monthSpan' });
    const noOrg = body(await client(t.app, op.token).get(`/auth/access/dashboard/availability?level=sites&from=${m1}&to=${m1}`));
    expect(noOrg.result.issues).toContainEqual({ path: 'querystring.orgId', message: 'validation.required' });
  });

  it('a new demo lift gets believable months before its history, and every millisecond of each month counted once', async () => {
    const [, , demo] = await ensureDemoFleet(t.database.sql, 3);
    const from = Date.now() - 3 * 24 * HOUR;
    await backfillDemoHistory(t.database.sql, [{ id: demo!.id, deviceNo: demo!.deviceNo, kind: demo!.kind, floors: demo!.floors, utcOffsetHours: 0 }], 3);
    const fromMonth = new Date(from);
    const first = monthOf(Date.UTC(fromMonth.getUTCFullYear(), fromMonth.getUTCMonth() - 5, 1));
    const r = await availabilityForOrgs(t.database.sql, 'all', { level: 'lift', liftId: demo!.id, from: first, to: m3 });
    expect(r.months.length).toBeGreaterThanOrEqual(6);
    for (const m of r.months) {
      const [y, mo] = m.month.split('-').map(Number) as [number, number];
      const start = Date.UTC(y, mo - 1, 1);
      const end = Math.min(Date.UTC(y, mo, 1), Date.parse(r.asOf));
      const counted = Object.values(m.figures.times).reduce((a, b) => a + b, 0);
      expect(Math.abs(counted - (end - start)), m.month).toBeLessThanOrEqual(2);
      // A month of a week or more is believable: over 90 % available. The current month's first
      // days are too short a stretch for that (one demo outage on the 1st can be a fifth of it).
      if (end - start >= 7 * 24 * HOUR) expect(m.figures.availability!, m.month).toBeGreaterThan(0.9);
      else expect(m.figures.availability!, m.month).toBeGreaterThan(0);
      if (m.month !== m3) expect(m.figures.trips, m.month).toBeGreaterThan(0);
    }
    expect(r.total.failures).toBeGreaterThan(0);
    expect(r.total.mtta).toBeGreaterThan(0);
    expect(r.total.mttr!).toBeGreaterThan(r.total.mtta!);
  });

  it('counts a maintenance window over the open interval as maintenance, live', async () => {
    const sql = t.database.sql;
    const [lift] = await sql.query<{ avail_state: string; avail_since: Date }>(`select avail_state, avail_since from lifts where id = $1`, [farLiftId]);
    expect(lift!.avail_state).toBe('offline');
    const since = new Date(lift!.avail_since).getTime();
    const [w] = await sql.query<{ id: string }>(
      `insert into maintenance_windows (starts_at, ends_at, reason, declared_by_name, start_logged, end_logged) values ($1, $2, 'service', 'admin', true, true) returning id`,
      [new Date(since + 1000), new Date(Date.now() + HOUR)],
    );
    await sql.query(`insert into maintenance_window_lifts (window_id, lift_id) values ($1, $2)`, [w!.id, farLiftId]);
    // Counted up to a moment well inside the window (the lift may be only a second old).
    const asOf = new Date(Math.max(Date.now(), since + 5000));
    const r = await availabilityForOrgs(sql, [farId], { level: 'lift', liftId: farLiftId, from: m3, to: m3 }, asOf);
    // The lift's time is read in milliseconds, the database keeps microseconds: within one.
    expect(Math.abs(r.total.times.offline - 1000)).toBeLessThanOrEqual(1);
    expect(r.total.times.maintenance).toBe(asOf.getTime() - since - 1000);
    expect(r.total.times.inService).toBe(0);
    expect(r.total.availability).toBe(0);
  });

  it('the hourly job books open intervals once, whoever runs it how often; a lift clock ahead books nothing of the future', async () => {
    const before = (await report(op.token, `level=lift&liftId=${liftId}&from=${m1}&to=${m3}`)).result;
    await t.app.jobs.run('availability');
    await t.app.jobs.run('availability');
    // Two instances at once (separate connections on PostgreSQL): each interval booked once.
    await Promise.all([bookOpenIntervals(t.database.sql), bookOpenIntervals(t.database.sql)]);
    const after = (await report(op.token, `level=lift&liftId=${liftId}&from=${m1}&to=${m3}`)).result;
    expect(after.months[0]!.figures).toEqual(before.months[0]!.figures);
    expect(after.months[1]!.figures).toEqual(before.months[1]!.figures);
    expect(Math.abs(after.months[2]!.figures.times.inService - (Date.parse(after.asOf) - M3))).toBeLessThanOrEqual(2);
    expect(after.months[2]!.figures.times.maintenance).toBe(0);

    // Its clock says tomorrow: the lift is disabled from now, not from tomorrow.
    const tomorrow = Date.now() + 24 * HOUR;
    await status(tomorrow, 'disabled');
    const [row] = await t.database.sql.query<{ avail_state: string; avail_since: Date; now: Date }>(`select avail_state, avail_since, now() as now from lifts where id = $1`, [liftId]);
    expect(row!.avail_state).toBe('disabled');
    expect(new Date(row!.avail_since).getTime()).toBeLessThanOrEqual(new Date(row!.now).getTime());
    const later = (await report(op.token, `level=lift&liftId=${liftId}&from=${m3}&to=${m3}`)).result;
    expect(later.total.times.disabled).toBeLessThan(60_000);
    expect(Math.abs(later.total.times.inService + later.total.times.disabled - (Date.parse(later.asOf) - M3))).toBeLessThanOrEqual(2);
  });
});
