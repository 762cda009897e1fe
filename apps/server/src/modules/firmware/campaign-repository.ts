import type {
  CampaignLiftState,
  CampaignPlan,
  CampaignStage,
  CampaignState,
  FirmwareCampaign,
  FirmwareCampaignLift,
  FirmwareCampaignSelection,
  FirmwarePackageState,
} from '@liftlink/protocol';
import { campaignFailurePercent, FAILED_CAMPAIGN_LIFT_STATES, OPEN_CAMPAIGN_STATES } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/**
 * Firmware campaigns in the database (migration 0032): the campaign, its lifts with their
 * stage and offer, and each lift's state read from its offer's row in lift_firmware_updates.
 */

/** A campaign lift's state: waiting for its stage, cancelled before its offer, else its offer's. */
export const LIFT_STATE = `case when cl.offered_at is null and cl.cancelled_at is not null then 'cancelled'
                         when cl.offered_at is null then 'waiting'
                         else coalesce(u.state, 'offered') end`;
export const LIFT_JOIN = `firmware_campaign_lifts cl
  left join lift_firmware_updates u on u.lift_id = cl.lift_id and u.offer_seq = cl.offer_seq`;

/** The lifts a selection comes to: the maker's, of the kinds, not on `version` yet, not in another open campaign. */
export async function selectLifts(
  sql: SqlExecutor,
  o: { orgId: string; kinds: string[]; version: string; selection: FirmwareCampaignSelection },
): Promise<{ id: string; deviceNo: string }[]> {
  const { fromVersions, operatorOrgIds, liftIds } = o.selection;
  return sql.query(
    `select l.id, l.device_no as "deviceNo" from lifts l
      where l.manufacturer_org_id = $1 and l.device_no is not null and l.kind = any($2::text[])
        and l.firmware is distinct from $3
        and ($4::text[] is null or l.firmware = any($4::text[]))
        and ($5::uuid[] is null or l.operator_org_id = any($5::uuid[]))
        and ($6::uuid[] is null or l.id = any($6::uuid[]))
        and not exists (select 1 from firmware_campaign_lifts cl join firmware_campaigns c on c.id = cl.campaign_id
                         where cl.lift_id = l.id and c.state = any($7::text[]))
      order by l.device_no`,
    [o.orgId, o.kinds, o.version, fromVersions ?? null, operatorOrgIds ?? null, liftIds ?? null, OPEN_CAMPAIGN_STATES],
  );
}

export async function insertCampaign(
  sql: SqlExecutor,
  o: {
    orgId: string;
    packageId: string;
    name: string;
    selection: FirmwareCampaignSelection;
    plan: CampaignPlan;
    createdBy: { id: string; name: string };
    lifts: { id: string; stage: number }[];
  },
): Promise<string> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into firmware_campaigns (org_id, package_id, name, selection, plan, created_by, created_by_name)
       values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7) returning id`,
      [o.orgId, o.packageId, o.name, JSON.stringify(o.selection), JSON.stringify(o.plan), o.createdBy.id, o.createdBy.name],
    );
    await tx.query(
      `insert into firmware_campaign_lifts (campaign_id, lift_id, position, stage)
       select $1, v.lift_id, v.position, v.stage from unnest($2::uuid[], $3::int[], $4::int[]) as v(lift_id, position, stage)`,
      [row!.id, o.lifts.map((l) => l.id), o.lifts.map((_, i) => i), o.lifts.map((l) => l.stage)],
    );
    return row!.id;
  });
}

interface CampaignRow {
  id: string;
  name: string;
  org_id: string;
  package_id: string;
  package_version: string;
  package_state: FirmwarePackageState;
  state: CampaignState;
  pause_reason: 'manual' | 'failureThreshold' | null;
  selection: FirmwareCampaignSelection;
  plan: CampaignPlan;
  current_stage: number;
  next_stage_at: Date | null;
  created_by: string | null;
  created_by_name: string;
  created_at: Date;
  approved_by: string | null;
  approved_by_name: string | null;
  approved_at: Date | null;
  resumed_at: Date | null;
  ended_at: Date | null;
}

const CAMPAIGN_COLUMNS = `c.*, p.version as package_version, p.state as package_state`;
export const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** Per stage: how many lifts wait, are on their way, ended done, failed or cancelled. */
async function stagesOf(sql: SqlExecutor, ids: string[]): Promise<Map<string, CampaignStage[]>> {
  const rows = await sql.query<{ campaign_id: string; stage: number; state: CampaignLiftState; n: string; started: Date | null; last: Date | null }>(
    `select cl.campaign_id, cl.stage, ${LIFT_STATE} as state, count(*) as n,
            min(cl.offered_at) as started, max(coalesce(u.updated_at, cl.cancelled_at)) as last
       from ${LIFT_JOIN}
      where cl.campaign_id = any($1::uuid[])
      group by 1, 2, 3 order by 1, 2`,
    [ids],
  );
  const out = new Map<string, CampaignStage[]>();
  for (const r of rows) {
    const stages = out.get(r.campaign_id) ?? [];
    out.set(r.campaign_id, stages);
    let s = stages.find((x) => x.stage === r.stage);
    if (!s) {
      s = { stage: r.stage, size: 0, waiting: 0, inProgress: 0, done: 0, failed: 0, cancelled: 0, startedAt: null, endedAt: null };
      stages.push(s);
    }
    const n = Number(r.n);
    s.size += n;
    if (r.state === 'waiting') s.waiting += n;
    else if (r.state === 'done') s.done += n;
    else if (r.state === 'cancelled') s.cancelled += n;
    else if (FAILED_CAMPAIGN_LIFT_STATES.includes(r.state)) s.failed += n;
    else s.inProgress += n;
    if (r.started && (!s.startedAt || new Date(r.started).toISOString() < s.startedAt)) s.startedAt = iso(r.started);
    if (r.last && (!s.endedAt || new Date(r.last).toISOString() > s.endedAt)) s.endedAt = iso(r.last);
  }
  for (const stages of out.values())
    for (const s of stages) if (s.waiting + s.inProgress > 0) s.endedAt = null;
  return out;
}

function toView(r: CampaignRow, stages: CampaignStage[]): FirmwareCampaign {
  const failed = stages.reduce((n, s) => n + s.failed, 0);
  const ended = stages.reduce((n, s) => n + s.failed + s.done, 0);
  return {
    id: r.id,
    name: r.name,
    orgId: r.org_id,
    packageId: r.package_id,
    packageVersion: r.package_version,
    packageState: r.package_state,
    state: r.state,
    pauseReason: r.pause_reason,
    selection: json(r.selection),
    plan: json(r.plan),
    createdBy: { id: r.created_by, name: r.created_by_name },
    createdAt: iso(r.created_at)!,
    approvedBy: r.approved_by_name ? { id: r.approved_by, name: r.approved_by_name } : null,
    approvedAt: iso(r.approved_at),
    endedAt: iso(r.ended_at),
    failurePercent: campaignFailurePercent(failed, ended),
    stages,
  };
}

/** Campaigns of an organization (every organization's with null), newest first. */
export async function listCampaigns(sql: SqlExecutor, orgId: string | null): Promise<FirmwareCampaign[]> {
  const rows = await sql.query<CampaignRow>(
    `select ${CAMPAIGN_COLUMNS} from firmware_campaigns c join firmware_packages p on p.id = c.package_id
      where $1::uuid is null or c.org_id = $1 order by c.created_at desc limit 500`,
    [orgId],
  );
  const stages = await stagesOf(sql, rows.map((r) => r.id));
  return rows.map((r) => toView(r, stages.get(r.id) ?? []));
}

export async function findCampaignRow(sql: SqlExecutor, id: string): Promise<CampaignRow | null> {
  const [row] = await sql.query<CampaignRow>(
    `select ${CAMPAIGN_COLUMNS} from firmware_campaigns c join firmware_packages p on p.id = c.package_id where c.id = $1`,
    [id],
  );
  return row ?? null;
}

export async function campaignView(sql: SqlExecutor, row: CampaignRow): Promise<FirmwareCampaign> {
  return toView(row, (await stagesOf(sql, [row.id])).get(row.id) ?? []);
}

export async function listCampaignLifts(sql: SqlExecutor, id: string): Promise<FirmwareCampaignLift[]> {
  const rows = await sql.query<{
    lift_id: string; device_no: string; alias: string | null; operator_org_name: string | null; stage: number; state: CampaignLiftState;
    percent: number | null; reason: string | null; retry_at: Date | null; running_version: string | null; updated_at: Date;
  }>(
    `select cl.lift_id, l.device_no, nullif(l.alias, '') as alias, o.name as operator_org_name, cl.stage, ${LIFT_STATE} as state,
            u.percent, u.reason, u.retry_at, coalesce(u.running_version, l.firmware) as running_version,
            coalesce(u.reported_at, cl.cancelled_at, cl.offered_at, c.created_at) as updated_at
       from ${LIFT_JOIN}
       join firmware_campaigns c on c.id = cl.campaign_id
       join lifts l on l.id = cl.lift_id
       left join organizations o on o.id = l.operator_org_id
      where cl.campaign_id = $1 order by cl.position`,
    [id],
  );
  return rows.map((r) => ({
    liftId: r.lift_id,
    deviceNo: r.device_no,
    alias: r.alias,
    operatorOrgName: r.operator_org_name,
    stage: r.stage,
    state: r.state,
    percent: r.percent === null ? null : Number(r.percent),
    reason: r.reason,
    retryAt: iso(r.retry_at),
    runningVersion: r.running_version,
    updatedAt: iso(r.updated_at)!,
  }));
}

/** Moves a campaign from one of `from` to `to`; null when it was in none of them (someone else moved it first). */
export async function moveCampaign(
  sql: SqlExecutor,
  id: string,
  from: CampaignState[],
  set: { state: CampaignState; pauseReason?: 'manual' | 'failureThreshold' | null; approvedBy?: { id: string; name: string }; notBy?: string; resumed?: boolean; ended?: boolean },
): Promise<boolean> {
  const rows = await sql.query(
    `update firmware_campaigns
        set state = $3, pause_reason = $4,
            approved_by = coalesce($5, approved_by), approved_by_name = coalesce($6, approved_by_name),
            approved_at = case when $5::uuid is null then approved_at else now() end,
            resumed_at = case when $8 then now() else resumed_at end,
            ended_at = case when $9 then now() else ended_at end
      where id = $1 and state = any($2::text[]) and ($7::uuid is null or created_by is distinct from $7)
      returning id`,
    [id, from, set.state, set.pauseReason ?? null, set.approvedBy?.id ?? null, set.approvedBy?.name ?? null, set.notBy ?? null, set.resumed ?? false, set.ended ?? false],
  );
  return rows.length === 1;
}

/** Cancels the lifts not offered yet; returns how many. */
export async function cancelWaitingLifts(sql: SqlExecutor, id: string): Promise<number> {
  const rows = await sql.query(
    `update firmware_campaign_lifts set cancelled_at = now() where campaign_id = $1 and offered_at is null and cancelled_at is null returning lift_id`,
    [id],
  );
  return rows.length;
}

// ---------------------------------------------------------------------------------------
// What the campaign job reads and writes

export const runningCampaigns = (sql: SqlExecutor) =>
  sql.query<CampaignRow>(
    `select ${CAMPAIGN_COLUMNS} from firmware_campaigns c join firmware_packages p on p.id = c.package_id where c.state = 'running' order by c.created_at`,
  );

/** The campaigns of a package that have not ended. */
export const openCampaignsOfPackage = (sql: SqlExecutor, packageId: string) =>
  sql.query<CampaignRow>(
    `select ${CAMPAIGN_COLUMNS} from firmware_campaigns c join firmware_packages p on p.id = c.package_id
      where c.package_id = $1 and c.state = any($2::text[]) order by c.created_at`,
    [packageId, OPEN_CAMPAIGN_STATES],
  );

/** Each lift's state in the campaign, with when its update ended. */
export function liftStates(sql: SqlExecutor, id: string) {
  // updated_at, not reported_at: the server's clock, comparable with resumed_at (a lift's clock may be off)
  return sql.query<{ lift_id: string; stage: number; state: CampaignLiftState; changed_at: Date | null; offered_at: Date | null; online: boolean; time_zone: string }>(
    `select cl.lift_id, cl.stage, ${LIFT_STATE} as state, u.updated_at as changed_at, cl.offered_at, l.online,
            coalesce(op.time_zone, mk.time_zone, 'UTC') as time_zone
       from ${LIFT_JOIN}
       join lifts l on l.id = cl.lift_id
       left join organizations op on op.id = l.operator_org_id
       left join organizations mk on mk.id = l.manufacturer_org_id
      where cl.campaign_id = $1`,
    [id],
  );
}

export async function markOffered(sql: SqlExecutor, campaignId: string, liftId: string, offerSeq: number): Promise<void> {
  await sql.query(
    `update firmware_campaign_lifts set offer_seq = $3, offered_at = now() where campaign_id = $1 and lift_id = $2`,
    [campaignId, liftId, offerSeq],
  );
}

/** A lift that cannot be offered the package any more (it lost its device number, or was given to another maker). */
export async function markUnofferable(sql: SqlExecutor, campaignId: string, liftId: string): Promise<void> {
  await sql.query(`update firmware_campaign_lifts set cancelled_at = now() where campaign_id = $1 and lift_id = $2 and offered_at is null`, [campaignId, liftId]);
}

export async function setStage(sql: SqlExecutor, id: string, stage: number, nextStageAt: Date | null): Promise<void> {
  await sql.query(`update firmware_campaigns set current_stage = $2, next_stage_at = $3 where id = $1 and state = 'running'`, [id, stage, nextStageAt]);
}

export type { CampaignRow };
