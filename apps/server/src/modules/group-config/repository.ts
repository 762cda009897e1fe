import {
  GROUP_CONFIG_LIFT_STATES,
  GROUP_CONFIG_LIST_MAX,
  GROUP_CONFIG_MAX_LIFTS,
  type CommandState,
  type GroupConfigChanges,
  type GroupConfigCounts,
  type GroupConfigLiftState,
  type GroupConfigOptions,
  type GroupConfigReason,
  type GroupConfigSelection,
  type GroupConfigSend,
  type GroupConfigSummary,
  type LiveChange,
  type RefusalReason,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import type { OwnedLift } from '../lifts/scope.ts';

type Sql = Pick<SqlExecutor, 'query'>;

/** A selected lift with what the review and the send need. */
export interface GroupLift extends OwnedLift {
  alias: string | null;
  site: string | null;
}

/**
 * The lifts of a selection within the caller's scope for the route's permission: every
 * criterion given narrows it, any value within one matches. A lift out of scope is simply not
 * selected. More than GROUP_CONFIG_MAX_LIFTS is refused, never cut.
 */
export async function selectLifts(sql: Sql, auth: AuthContext, selection: GroupConfigSelection): Promise<GroupLift[]> {
  const params: unknown[] = [];
  const add = (v: unknown) => `$${params.push(v)}`;
  const where: string[] = [];
  if (selection.kinds?.length) where.push(`l.kind = any(${add(selection.kinds)}::text[])`);
  if (selection.firmware?.length) where.push(`l.firmware = any(${add(selection.firmware)}::text[])`);
  if (selection.sites?.length) where.push(`l.location->>'site' = any(${add(selection.sites)}::text[])`);
  if (selection.orgIds?.length) {
    const orgs = add(selection.orgIds);
    where.push(`(l.operator_org_id = any(${orgs}::uuid[]) or l.manufacturer_org_id = any(${orgs}::uuid[]))`);
  }
  if (selection.liftIds?.length) where.push(`l.id = any(${add(selection.liftIds)}::uuid[])`);
  if (selection.deviceNos?.length) where.push(`l.device_no = any(${add(selection.deviceNos)}::text[])`);
  const scope = liftFilter(auth, params.length + 1);
  if (scope.param) params.push(scope.param);
  where.push(scope.where);
  const rows = await sql.query<GroupLift>(
    `select l.id, l.device_no, nullif(l.alias, '') as alias, l.kind, l.floors, l.online, l.config, l.config_version, l.firmware,
            l.manufacturer_org_id, l.operator_org_id, nullif(l.location->>'site', '') as site
       from lifts l where ${where.join(' and ')} order by l.device_no nulls last, l.id limit ${GROUP_CONFIG_MAX_LIFTS + 1}`,
    params,
  );
  if (rows.length > GROUP_CONFIG_MAX_LIFTS) throw new AppError('groupConfig.tooMany', { max: GROUP_CONFIG_MAX_LIFTS });
  return rows;
}

/** The kinds, firmware versions, sites and organizations of the caller's lifts: what a selection may name. */
export async function selectionOptions(sql: Sql, auth: AuthContext): Promise<GroupConfigOptions> {
  const scope = liftFilter(auth, 1);
  const params = scope.param ? [scope.param] : [];
  const distinct = async (expr: string) =>
    (await sql.query<{ v: string }>(`select distinct ${expr} as v from lifts l where ${scope.where} and coalesce(${expr}, '') <> '' order by 1`, params)).map((r) => r.v);
  const orgs = await sql.query<{ id: string; name: string }>(
    `select o.id, o.name from organizations o where exists (select 1 from lifts l where ${scope.where} and (l.operator_org_id = o.id or l.manufacturer_org_id = o.id)) order by o.name`,
    params,
  );
  return { kinds: (await distinct('l.kind')) as GroupConfigOptions['kinds'], firmware: await distinct('l.firmware'), sites: await distinct(`l.location->>'site'`), orgs };
}

export interface NewGroupLift {
  liftId: string;
  version: number;
  commandKey: string;
  state: GroupConfigLiftState;
  reason: GroupConfigReason | null;
}

/** Records a send and its lifts; null when the caller used this idempotency key before (that send stands). */
export async function insertSend(
  sql: SqlExecutor,
  send: { userId: string; username: string; idempotencyKey: string; selection: GroupConfigSelection; changes: GroupConfigChanges },
  lifts: (groupId: string) => NewGroupLift[],
): Promise<string | null> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into group_config_sends (user_id, username, idempotency_key, selection, changes) values ($1, $2, $3, $4::jsonb, $5::jsonb)
       on conflict (user_id, idempotency_key) do nothing returning id`,
      [send.userId, send.username, send.idempotencyKey, JSON.stringify(send.selection), JSON.stringify(send.changes)],
    );
    if (!row) return null;
    const list = lifts(row.id);
    if (list.length) {
      await tx.query(
        `insert into group_config_lifts (group_id, lift_id, version, command_key, state, reason, answered_at)
         select $1, l, v, k, s, r, case when s = 'pending' then null else now() end
           from unnest($2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[]) as t(l, v, k, s, r)`,
        [row.id, list.map((l) => l.liftId), list.map((l) => l.version), list.map((l) => l.commandKey), list.map((l) => l.state), list.map((l) => l.reason)],
      );
    }
    return row.id;
  });
}

export async function sendIdByKey(sql: Sql, userId: string, key: string): Promise<string | null> {
  const [row] = await sql.query<{ id: string }>('select id from group_config_sends where user_id = $1 and idempotency_key = $2', [userId, key]);
  return row?.id ?? null;
}

/**
 * Moves a lift of a send on, forward only (from pending or sent): a state the lift's answer
 * wrote already is never overwritten by a later, slower path. Returns whether it moved.
 */
export async function moveLift(sql: Sql, groupId: string, liftId: string, state: GroupConfigLiftState, reason: GroupConfigReason | null, from: GroupConfigLiftState[]): Promise<boolean> {
  const rows = await sql.query(
    `update group_config_lifts set state = $3, reason = $4, answered_at = case when $3 in ('pending', 'sent') then null else now() end
      where group_id = $1 and lift_id = $2 and state = any($5::text[]) returning lift_id`,
    [groupId, liftId, state, reason, from],
  );
  return rows.length === 1;
}

/** Stores the command a lift's config/set went out as (the answer may have found the row first). */
export async function setCommandId(sql: Sql, groupId: string, liftId: string, commandId: string): Promise<void> {
  await sql.query('update group_config_lifts set command_id = $3 where group_id = $1 and lift_id = $2', [groupId, liftId, commandId]);
}

/**
 * Ingest's part (modules/ingest/appliers/command-answer.ts): a lift's final answer to a
 * config/set of a group send moves its row in the same transaction, and the page hears it.
 * The command is found by the per-lift idempotency key it was recorded with.
 */
export async function applyGroupConfigAnswer(tx: Sql, commandId: string, state: CommandState, reason: RefusalReason | null, live: LiveChange[]): Promise<void> {
  if (state !== 'done' && state !== 'rejected' && state !== 'failed') return;
  const next = state === 'done' ? 'done' : 'refused';
  const rows = await tx.query<{ group_id: string; lift_id: string }>(
    `update group_config_lifts g set state = $2, reason = $3, answered_at = now(), command_id = c.id
       from lift_commands c where c.id = $1 and c.kind = 'config/set' and g.command_key = c.idempotency_key and g.state in ('pending', 'sent')
     returning g.group_id, g.lift_id`,
    [commandId, next, next === 'done' ? null : reason],
  );
  for (const r of rows) live.push({ type: 'groupConfig', groupId: r.group_id, liftId: r.lift_id, state: next, reason: next === 'done' ? null : reason });
}

const emptyCounts = (): GroupConfigCounts => Object.fromEntries(GROUP_CONFIG_LIFT_STATES.map((s) => [s, 0])) as GroupConfigCounts;

interface SendRow {
  id: string;
  created_at: Date;
  username: string;
  changes: GroupConfigChanges;
  selection: Record<string, string[]>;
}

/** A send of the caller with its lifts (only those the caller's scope reaches now); not found otherwise. */
export async function readSend(sql: Sql, auth: AuthContext, id: string): Promise<GroupConfigSend> {
  const [send] = await sql.query<SendRow>('select id, created_at, username, changes, selection from group_config_sends where id = $1 and user_id = $2', [id, auth.userId]);
  if (!send) throw new AppError('groupConfig.notFound');
  const scope = liftFilter(auth, 2);
  const lifts = await sql.query<{ liftId: string; deviceNo: string | null; alias: string | null; version: number; commandId: string | null; state: GroupConfigLiftState; reason: GroupConfigReason | null; answeredAt: Date | null }>(
    `select g.lift_id as "liftId", l.device_no as "deviceNo", nullif(l.alias, '') as alias, g.version, g.command_id as "commandId", g.state, g.reason, g.answered_at as "answeredAt"
       from group_config_lifts g join lifts l on l.id = g.lift_id
      where g.group_id = $1 and ${scope.where} order by l.device_no nulls last, l.id`,
    scope.param ? [id, scope.param] : [id],
  );
  const counts = emptyCounts();
  for (const l of lifts) counts[l.state] += 1;
  return {
    id: send.id,
    createdAt: send.created_at.toISOString(),
    username: send.username,
    changes: send.changes,
    counts,
    selection: send.selection,
    lifts: lifts.map((l) => ({ ...l, answeredAt: l.answeredAt ? l.answeredAt.toISOString() : null })),
  };
}

/** The caller's recent sends, newest first, with their state counts. */
export async function recentSends(sql: Sql, userId: string): Promise<GroupConfigSummary[]> {
  const rows = await sql.query<Omit<SendRow, 'selection'> & { counts: Record<string, number> | null }>(
    `select s.id, s.created_at, s.username, s.changes,
            (select jsonb_object_agg(state, n) from (select state, count(*)::int as n from group_config_lifts g where g.group_id = s.id group by state) c) as counts
       from group_config_sends s where s.user_id = $1 order by s.created_at desc, s.id limit ${GROUP_CONFIG_LIST_MAX}`,
    [userId],
  );
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at.toISOString(), username: r.username, changes: r.changes, counts: { ...emptyCounts(), ...(r.counts ?? {}) } }));
}
