import { AVAILABILITY_STATES, availabilityOf, monthsBetween, type AvailabilityFigures, type AvailabilityQuery, type AvailabilityReport, type AvailabilityRow, type StateTimes } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { authorize, grantFilter } from '../access/policy.ts';
import { maintenanceMsSql } from './book.ts';

/**
 * The availability report (packages/protocol api/availability.ts, docs/insight.md): the month
 * rows ingest keeps, plus each lift's open interval up to now (less its maintenance windows),
 * summed per organization, site or lift. Reads at most one row per lift and month.
 */

/** The lifts a report may count (a condition on alias `l`, parameters from $1) and the organizations it may name. */
interface ReportScope {
  where: string;
  params: unknown[];
  orgs: string[] | 'all';
}

/** The month rows' sums, in the order the query selects them. */
const SUMS = ['in_service_ms', 'faulted_ms', 'stopped_ms', 'locked_ms', 'disabled_ms', 'offline_ms', 'maintenance_ms', 'trips', 'failures', 'incidents', 'ack_count', 'ack_ms_sum', 'restore_count', 'restore_ms_sum'] as const;
type Sums = Record<(typeof SUMS)[number], number>;
const STATE_COLUMNS: Record<(typeof AVAILABILITY_STATES)[number], (typeof SUMS)[number]> = {
  inService: 'in_service_ms',
  faulted: 'faulted_ms',
  stopped: 'stopped_ms',
  locked: 'locked_ms',
  disabled: 'disabled_ms',
  offline: 'offline_ms',
  maintenance: 'maintenance_ms',
};

const zeroSums = (): Sums => Object.fromEntries(SUMS.map((c) => [c, 0])) as Sums;
const addSums = (a: Sums, b: Sums): Sums => Object.fromEntries(SUMS.map((c) => [c, a[c] + b[c]])) as Sums;
const mean = (sum: number, count: number) => (count > 0 ? Math.round(sum / count) : null);

function figuresOf(s: Sums): AvailabilityFigures {
  const times = Object.fromEntries(AVAILABILITY_STATES.map((st) => [st, s[STATE_COLUMNS[st]]])) as StateTimes;
  return {
    times,
    availability: availabilityOf(times),
    trips: s.trips,
    failures: s.failures,
    incidents: s.incidents,
    mtta: mean(s.ack_ms_sum, s.ack_count),
    mttr: mean(s.restore_ms_sum, s.restore_count),
    mtbf: mean(times.inService, s.failures),
  };
}

/** `YYYY-MM` → its first day, and the first day after the month `to`. */
const monthStart = (m: string) => `${m}-01`;
function monthAfter(m: string): string {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  return mo === 12 ? `${y + 1}-01-01` : `${y}-${String(mo + 1).padStart(2, '0')}-01`;
}

const SITE_SQL = `coalesce(trim(l.location->>'site'), '')`;
const NAME_SQL = `coalesce(nullif(trim(l.alias), ''), l.device_no, l.id::text)`;

/** Which lifts a report counts and how they fall into its rows. */
interface LevelCut {
  /** The lifts: a condition on alias `l` (parameters in `params`). */
  where: string;
  /** The rows: `lift_id`, `key`, `name` per lift and row (a lift is in two organizations' rows). */
  keysSql: string;
  params: unknown[];
  /** SQL over alias `l` that the figures are grouped by; `keysOf` turns a group into its rows' keys. */
  groupBy: string[];
  keysOf: (group: (string | null)[]) => string[];
  /** Rows even without a lift (organizations asked for by id). */
  extraRows: { key: string; name: string }[];
}

/** The level's lifts and rows; checks that the organization or lift asked for is within the scope. */
async function cutOf(sql: SqlExecutor, scope: ReportScope, q: AvailabilityQuery): Promise<LevelCut> {
  const params = [...scope.params];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const one = (g: (string | null)[]) => [g[0] ?? ''];
  if (q.level === 'orgs') {
    const orgs = scope.orgs;
    const ofOrgs = orgs === 'all' ? 'true' : `(l.manufacturer_org_id = any(${p(orgs)}::uuid[]) or l.operator_org_id = any($${params.length}::uuid[]))`;
    const where = `(${scope.where}) and ${ofOrgs}`;
    const extraRows = orgs === 'all' ? [] : await sql.query<{ key: string; name: string }>(`select id::text as key, name from organizations where id = any($1::uuid[])`, [orgs]);
    return {
      where,
      // A lift's maker and operator are different organizations: two equi-joins, no lift twice in a row.
      keysSql: ['manufacturer_org_id', 'operator_org_id']
        .map((col) => `select l.id as lift_id, o.id::text as key, o.name from lifts l join organizations o on o.id = l.${col} where ${where}${orgs === 'all' ? '' : ` and o.id = any($${params.length}::uuid[])`}`)
        .join(' union all '),
      params,
      // A lift counts for its maker and for its operator, each when the report names it.
      groupBy: ['l.manufacturer_org_id::text', 'l.operator_org_id::text'],
      keysOf: (g) => g.filter((k): k is string => k !== null && (orgs === 'all' || orgs.includes(k))),
      extraRows,
    };
  }
  if (q.level === 'lift') {
    const where = `l.id = ${p(q.liftId)}::uuid and (${scope.where})`;
    const [lift] = await sql.query<{ id: string }>(`select l.id from lifts l where ${where}`, params);
    if (!lift) throw new AppError('lift.notFound');
    return { where, keysSql: `select l.id as lift_id, l.id::text as key, ${NAME_SQL} as name from lifts l where ${where}`, params, groupBy: ['l.id::text'], keysOf: one, extraRows: [] };
  }
  const orgId = q.orgId!;
  const known = scope.orgs === 'all' ? (await sql.query(`select 1 from organizations where id = $1`, [orgId])).length > 0 : scope.orgs.includes(orgId);
  if (!known) throw new AppError('org.notFound');
  const ofOrg = `(${scope.where}) and (l.manufacturer_org_id = ${p(orgId)}::uuid or l.operator_org_id = $${params.length}::uuid)`;
  if (q.level === 'sites') return { where: ofOrg, keysSql: `select l.id as lift_id, ${SITE_SQL} as key, ${SITE_SQL} as name from lifts l where ${ofOrg}`, params, groupBy: [SITE_SQL], keysOf: one, extraRows: [] };
  const where = `${ofOrg} and ${SITE_SQL} = ${p(q.site!.trim())}`;
  return { where, keysSql: `select l.id as lift_id, l.id::text as key, ${NAME_SQL} as name from lifts l where ${where}`, params, groupBy: ['l.id::text'], keysOf: one, extraRows: [] };
}

/** Sums of bigint columns as float8: exact up to 2^53 ms and far quicker than numeric. */
const INT_SUMS = new Set<string>(['trips', 'failures', 'incidents', 'ack_count', 'restore_count']);

async function report(sql: SqlExecutor, scope: ReportScope, q: AvailabilityQuery, now?: Date): Promise<AvailabilityReport> {
  const asOf = now ?? (await sql.query<{ now: Date }>(`select now() as now`))[0]!.now;
  const cut = await cutOf(sql, scope, q);
  const params = [...cut.params];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const [nowP, fromP, toP, endP] = [p(new Date(asOf).toISOString()), p(monthStart(q.from)), p(monthStart(q.to)), p(monthAfter(q.to))];
  // The open interval of each lift, cut to the span and to now, split at the UTC months.
  const stop = `least(${nowP}::timestamptz, ${endP}::date at time zone 'utc')`;
  const liveCol = (c: (typeof SUMS)[number]) => {
    const state = AVAILABILITY_STATES.find((s) => STATE_COLUMNS[s] === c);
    if (c === 'maintenance_ms') return 'maint';
    return state ? `case when state = '${state}' then total - maint else 0 end` : '0';
  };
  const groups = cut.groupBy.map((g, i) => `${g} as g${i}`).join(', ');
  const text = `with
     -- Open intervals that reach into the span: counted live, less the lift's maintenance windows.
     sel as materialized (select l.id, l.avail_state, l.avail_since from lifts l where ${cut.where} and l.avail_since < ${stop}),
     live as (
       select s.id as lift_id, mo::date as month, s.avail_state as state,
              greatest(s.avail_since, mo at time zone 'utc') as a, least(${stop}, (mo + interval '1 month') at time zone 'utc') as b
         from sel s
         cross join lateral generate_series(date_trunc('month', greatest(s.avail_since, ${fromP}::date at time zone 'utc') at time zone 'utc'), ${stop} at time zone 'utc', interval '1 month') as mo
     ),
     live_ms as materialized (select lv.lift_id, lv.month, lv.state, round(extract(epoch from lv.b - lv.a) * 1000)::bigint as total, ${maintenanceMsSql('lv.lift_id', 'lv.a', 'lv.b')} as maint from live lv where lv.b > lv.a),
     part as (
       select lift_id, month, ${SUMS.join(', ')} from lift_availability_monthly
        where lift_id in (select l.id from lifts l where ${cut.where}) and month >= ${fromP}::date and month <= ${toP}::date
       union all
       select lift_id, month, ${SUMS.map((c) => `${liveCol(c)} as ${c}`).join(', ')} from live_ms
     )
     select ${groups}, to_char(p.month, 'YYYY-MM') as month, ${SUMS.map((c) => (INT_SUMS.has(c) ? `sum(p.${c}) as ${c}` : `sum(p.${c}::float8) as ${c}`)).join(', ')}
       from part p join lifts l on l.id = p.lift_id where ${cut.where} group by ${cut.groupBy.map((_, i) => `g${i}`).join(', ')}, p.month`;
  // The estimates of the per-lift month series are far off: PostgreSQL would spend seconds
  // compiling the plan (JIT) for a query that runs in tens of milliseconds.
  const rows = await sql.transaction(async (tx) => {
    await tx.query('set local jit = off');
    return tx.query<Record<string, string | null>>(text, params);
  });
  const members = await sql.query<{ key: string; name: string; lifts: string }>(`select key, min(name) as name, count(distinct lift_id) as lifts from (${cut.keysSql}) k group by key`, cut.params);

  const byMonth = new Map<string, Sums>();
  const byKey = new Map<string, Sums>();
  for (const r of rows) {
    const figures = Object.fromEntries(SUMS.map((c) => [c, Math.round(Number(r[c]))])) as Sums;
    // Each lift is in one group: the month totals count it once, whichever rows it is in.
    byMonth.set(r.month!, addSums(byMonth.get(r.month!) ?? zeroSums(), figures));
    for (const key of cut.keysOf(cut.groupBy.map((_, i) => r[`g${i}`] ?? null))) byKey.set(key, addSums(byKey.get(key) ?? zeroSums(), figures));
  }
  const months = monthsBetween(q.from, q.to).map((month) => ({ month, figures: figuresOf(byMonth.get(month) ?? zeroSums()) }));
  const total = figuresOf([...byMonth.values()].reduce(addSums, zeroSums()));
  const named = new Map(members.map((m) => [m.key, { name: m.name, lifts: Number(m.lifts) }]));
  for (const e of cut.extraRows) if (!named.has(e.key)) named.set(e.key, { name: e.name, lifts: 0 });
  const list: AvailabilityRow[] = [...named.entries()]
    .map(([key, m]) => ({ key, name: m.name, lifts: m.lifts, figures: figuresOf(byKey.get(key) ?? zeroSums()) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  return { level: q.level, from: q.from, to: q.to, months, total, rows: list, asOf: new Date(asOf).toISOString() };
}

/**
 * The report over the lifts of these organizations (a lift belongs to its maker and to its
 * operator), or of every lift. No access check: the caller (the monthly report job) decides
 * which organizations. `now` is the moment the current month counts up to (default: the
 * database's now()).
 */
export async function availabilityForOrgs(sql: SqlExecutor, orgIds: string[] | 'all', query: AvailabilityQuery, now?: Date): Promise<AvailabilityReport> {
  const scope: ReportScope = orgIds === 'all' ? { where: 'true', params: [], orgs: 'all' } : { where: '(l.manufacturer_org_id = any($1::uuid[]) or l.operator_org_id = any($1::uuid[]))', params: [orgIds], orgs: orgIds };
  return report(sql, scope, query, now);
}

/**
 * The route's report: the lifts the caller's `dashboard.query` grant reaches (as the analysis
 * dashboard), the organizations their grant names (every organization with scope `all`,
 * else their own). An organization or lift outside it is not found.
 */
export async function readAvailability(sql: SqlExecutor, auth: AuthContext, query: AvailabilityQuery): Promise<AvailabilityReport> {
  const grant = authorize(auth, 'dashboard.query');
  const filter = grantFilter(grant, 1);
  const orgs: ReportScope['orgs'] = grant?.scope === 'all' ? 'all' : grant?.orgId && filter.where !== 'false' ? [grant.orgId] : [];
  return report(sql, { where: filter.where, params: filter.param ? [filter.param] : [], orgs }, query);
}
