import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LiveChange, MaintenanceWindow } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import { ownedLift } from '../lifts/scope.ts';
import type { Executor } from './repository.ts';

/**
 * Maintenance windows (docs/service.md): declared for one lift or several at once (a site:
 * one window, one id), with start, end, reason and who declared it. While one runs its lifts
 * raise no alerts and open no incidents (`raiseAlert`); each lift's run log shows the start
 * (MAINT_ON) and the end (MAINT_OFF), written when they happen (`logWindowEdges`, run at
 * once by the routes and by the `maintenance-windows` job for the times in between).
 */

const VIEW_SELECT = `
  select w.id, w.starts_at as "startsAt", w.ends_at as "endsAt", w.reason, w.declared_by as "declaredById", w.declared_by_name as "declaredByName",
         w.declared_at as "declaredAt", w.ended_by_name as "endedByName",
         array(select wl.lift_id::text from maintenance_window_lifts wl where wl.window_id = w.id order by wl.lift_id) as "liftIds"
    from maintenance_windows w`;

const iso = (d: unknown) => new Date(d as string).toISOString();
const toView = (r: MaintenanceWindow): MaintenanceWindow => ({ ...r, id: Number(r.id), startsAt: iso(r.startsAt), endsAt: iso(r.endsAt), declaredAt: iso(r.declaredAt) });

/** Windows with a lift in the caller's reach (for one lift, or all); `current`: not ended yet. */
export async function listWindows(sql: SqlExecutor, auth: AuthContext, q: { liftId?: string | undefined; current?: 'true' | 'false' | undefined }): Promise<MaintenanceWindow[]> {
  const scope = liftFilter(auth, 1);
  const params: unknown[] = scope.param ? [scope.param] : [];
  const lift = q.liftId ? ` and wl.lift_id = $${params.push(q.liftId)}` : '';
  const current = q.current === 'true' ? ' and w.ends_at > now()' : '';
  const rows = await sql.query<MaintenanceWindow>(
    `${VIEW_SELECT} where exists (select 1 from maintenance_window_lifts wl join lifts l on l.id = wl.lift_id where wl.window_id = w.id and ${scope.where}${lift})${current}
      order by w.starts_at desc, w.id desc limit 200`,
    params,
  );
  return rows.map(toView);
}

async function findWindow(sql: Executor, id: number | string): Promise<MaintenanceWindow> {
  const [row] = await sql.query<MaintenanceWindow>(`${VIEW_SELECT} where w.id = $1`, [id]);
  return toView(row!);
}

const who = (request: FastifyRequest) => ({ userId: request.auth!.userId, username: request.auth!.username, ip: request.ip });

/** Declares a window over lifts the caller may reach with the route's grant (any other: lift.notFound, nothing declared). */
export async function declareWindow(app: FastifyInstance, request: FastifyRequest, input: { liftIds: string[]; startsAt?: string | undefined; endsAt: string; reason: string }): Promise<MaintenanceWindow> {
  const { sql } = app.database;
  const auth = request.auth!;
  const liftIds = [...new Set(input.liftIds)];
  for (const liftId of liftIds) await ownedLift(sql, auth, liftId);
  const id = await sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into maintenance_windows (starts_at, ends_at, reason, declared_by, declared_by_name) values (greatest(coalesce($1::timestamptz, now()), now()), $2, $3, $4, $5) returning id`,
      [input.startsAt ?? null, input.endsAt, input.reason, auth.userId, auth.username],
    );
    await tx.query(`insert into maintenance_window_lifts (window_id, lift_id) select $1, unnest($2::uuid[])`, [row!.id, liftIds]);
    return row!.id;
  });
  const window = await findWindow(sql, id);
  for (const liftId of liftIds) {
    await app.audit({ action: 'maintenance.declare', result: 'ok', ...who(request), liftId, targetType: 'maintenanceWindow', targetId: id, detail: { windowId: Number(id), startsAt: window.startsAt, endsAt: window.endsAt, purpose: input.reason, lifts: liftIds.length } });
  }
  await publishEdges(app);
  return window;
}

/**
 * Ends a running window now, or calls off a planned one (its run logs then show nothing);
 * every lift of it must be in the caller's reach.
 */
export async function endWindow(app: FastifyInstance, request: FastifyRequest, id: number): Promise<MaintenanceWindow> {
  const { sql } = app.database;
  const auth = request.auth!;
  const scope = liftFilter(auth, 2);
  const [reach] = await sql.query<{ total: string; reached: string }>(
    `select count(*) as total, count(*) filter (where ${scope.where}) as reached from maintenance_window_lifts wl join lifts l on l.id = wl.lift_id where wl.window_id = $1`,
    scope.param ? [id, scope.param] : [id],
  );
  if (!reach || Number(reach.total) === 0 || reach.reached !== reach.total) throw new AppError('maintenance.notFound');
  const rows = await sql.query(
    `update maintenance_windows
        set ends_at = greatest(now(), starts_at + interval '1 millisecond'), ended_by = $2, ended_by_name = $3,
            start_logged = start_logged or starts_at > now(), end_logged = end_logged or starts_at > now()
      where id = $1 and ends_at > now() returning id`,
    [id, auth.userId, auth.username],
  );
  const window = await findWindow(sql, id);
  if (!rows.length) throw new AppError('maintenance.ended', { window });
  for (const liftId of window.liftIds) {
    await app.audit({ action: 'maintenance.end', result: 'ok', ...who(request), liftId, targetType: 'maintenanceWindow', targetId: String(id), detail: { windowId: id } });
  }
  await publishEdges(app);
  return window;
}

/**
 * Writes the run-log entries of the window edges that have come (MAINT_ON at the start,
 * MAINT_OFF at the end, per lift), each window's edge once even with several instances
 * (`for update skip locked`). Each entry takes its lift's next ordinal and seq = -n, as the
 * cloud's ONLINE / OFFLINE entries do (migration 0012). Returns the live run-log messages.
 */
export async function logWindowEdges(tx: Executor): Promise<LiveChange[]> {
  const due = await tx.query<{ id: string; starts_at: Date; ends_at: Date; start_due: boolean; end_due: boolean }>(
    `select id, starts_at, ends_at, not start_logged and starts_at <= now() as start_due, not end_logged and ends_at <= now() as end_due
       from maintenance_windows where not end_logged and starts_at <= now() order by starts_at limit 200 for update skip locked`,
  );
  if (!due.length) return [];
  const edges: { windowId: string; ts: Date; code: 'MAINT_ON' | 'MAINT_OFF' }[] = [];
  for (const w of due) {
    if (w.start_due) edges.push({ windowId: w.id, ts: new Date(w.starts_at), code: 'MAINT_ON' });
    if (w.end_due) edges.push({ windowId: w.id, ts: new Date(w.ends_at), code: 'MAINT_OFF' });
  }
  const lifts = await tx.query<{ window_id: string; lift_id: string }>(`select window_id, lift_id from maintenance_window_lifts where window_id = any($1::bigint[]) order by lift_id`, [due.map((w) => w.id)]);
  const entries = edges.flatMap((e) => lifts.filter((l) => l.window_id === e.windowId).map((l) => ({ liftId: l.lift_id, ts: e.ts.toISOString(), code: e.code })));
  const live: LiveChange[] = [];
  if (entries.length) {
    const rows = await tx.query<{ id: string; lift_id: string; n: string; ts: Date; code: string }>(
      `with v as (select * from unnest($1::uuid[], $2::timestamptz[], $3::text[]) with ordinality as v(lift_id, ts, code, k)),
            c as (select lift_id, count(*) as cnt from v group by lift_id),
            u as (update lifts l set events_total = l.events_total + c.cnt from c where l.id = c.lift_id returning l.id, l.events_total - c.cnt as base),
            r as (select v.lift_id, v.ts, v.code, u.base + row_number() over (partition by v.lift_id order by v.k) as n from v join u on u.id = v.lift_id)
       insert into lift_events (lift_id, seq, n, ts, code, fault) select lift_id, -n, n, ts, code, false from r
       returning id, lift_id, n, ts, code`,
      [entries.map((e) => e.liftId), entries.map((e) => e.ts), entries.map((e) => e.code)],
    );
    for (const r of rows) live.push({ type: 'event', liftId: r.lift_id, id: Number(r.id), seq: -Number(r.n), ts: new Date(r.ts).toISOString(), code: r.code, floor: null, fault: false });
  }
  await tx.query(
    `update maintenance_windows set start_logged = start_logged or starts_at <= now(), end_logged = end_logged or ends_at <= now() where id = any($1::bigint[])`,
    [due.map((w) => w.id)],
  );
  return live;
}

/** Writes the edges that have come and tells the lifts' watchers; returns how many entries. */
export async function publishEdges(app: FastifyInstance): Promise<number> {
  const live = await app.database.sql.transaction((tx) => logWindowEdges(tx));
  await app.live.publish(live).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
  return live.length;
}
