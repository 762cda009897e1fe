import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  forbiddenConfigKeys,
  validateConfigChange,
  type ConfigIssue,
  type GroupConfigChanges,
  type GroupConfigLiftState,
  type GroupConfigPreview,
  type GroupConfigPreviewLift,
  type GroupConfigPreviewRequest,
  type GroupConfigReason,
  type GroupConfigSend,
  type GroupConfigSendRequest,
  type LiftConfig,
  type RefusalReason,
} from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import { forEachAtMost } from '../../lib/at-most.ts';
import { configRoleFor } from '../access/policy.ts';
import { writeConfig } from '../lifts/config-service.ts';
import { insertSend, moveLift, readSend, selectLifts, sendIdByKey, setCommandId, type GroupLift, type NewGroupLift } from './repository.ts';

/** How many lifts wait for their answers at once: a group never floods the broker or the database. */
const SEND_CONCURRENCY = 8;

/** A lift's review: the changed fields' values before and after, and what stops the change on it. */
function review(lift: GroupLift, changes: GroupConfigChanges, request: FastifyRequest): GroupConfigPreviewLift & { config: LiftConfig | null } {
  const current = lift.config as LiftConfig | null;
  const keys = Object.keys(changes);
  const next: LiftConfig | null = current ? { ...current, ...changes } : null;
  // A lift that never reported its configuration cannot be given a whole one: there is nothing to change.
  const issues: ConfigIssue[] = next ? validateConfigChange(current, next, lift.floors) : [{ path: 'config', message: 'groupConfig.noConfig' }];
  const role = configRoleFor(request.auth!, { manufacturerOrgId: lift.manufacturer_org_id });
  return {
    liftId: lift.id,
    deviceNo: lift.device_no,
    alias: lift.alias,
    kind: lift.kind as GroupConfigPreviewLift['kind'],
    firmware: lift.firmware,
    site: lift.site,
    online: lift.online,
    version: lift.config_version,
    current: Object.fromEntries(keys.map((k) => [k, current?.[k] ?? null])),
    next: changes,
    changed: keys.filter((k) => current?.[k] !== changes[k]),
    issues,
    forbidden: next ? forbiddenConfigKeys(current, next, role) : [],
    config: next,
  };
}

/** The per-lift difference of a selection and a change, for the review step. */
export async function preview(app: FastifyInstance, request: FastifyRequest, body: GroupConfigPreviewRequest): Promise<GroupConfigPreview> {
  const lifts = await selectLifts(app.database.sql, request.auth!, body.selection);
  return { lifts: lifts.map((l) => withoutConfig(review(l, body.changes as GroupConfigChanges, request))) };
}

function withoutConfig<T extends { config: unknown }>(r: T): Omit<T, 'config'> {
  const { config: _config, ...rest } = r;
  return rest;
}

/** Why a reviewed lift is not sent, or null when it goes out. */
function skipReason(r: ReturnType<typeof review>, reviewed: number): GroupConfigReason | null {
  if (r.version !== reviewed) return 'versionChanged';
  if (r.issues.length) return 'invalid';
  if (r.forbidden.length) return 'forbidden';
  if (!r.changed.length) return 'unchanged';
  return null;
}

/** One command key per lift of a send: the lift's config/set is recorded under it, so its answer finds the row. */
const commandKey = (groupId: string, index: number) => `gc_${groupId.replace(/-/g, '')}_${index}`;

/** The sends still running, so a stopping server lets them end (each lift answered, or marked). */
const running = new Set<Promise<void>>();
export const runningSends = () => Promise.allSettled([...running]);

/**
 * Sends a reviewed change. Per lift of the selection the caller reviewed (and still reaches):
 * a version changed since the review, an invalid or forbidden change, or one that changes
 * nothing is skipped with its reason; an offline lift is marked offline and never sent, now or
 * later; every other lift gets its whole new configuration through `writeConfig` with the
 * reviewed version. The answer comes back at once; each lift's outcome follows live.
 * The same idempotency key again answers with that send, and sends nothing.
 */
export async function send(app: FastifyInstance, request: FastifyRequest, body: GroupConfigSendRequest): Promise<GroupConfigSend> {
  const { sql } = app.database;
  const auth = request.auth!;
  const first = await sendIdByKey(sql, auth.userId, body.idempotencyKey);
  if (first) return readSend(sql, auth, first);
  const changes = body.changes as GroupConfigChanges;
  const lifts = (await selectLifts(sql, auth, body.selection)).filter((l) => body.versions[l.id] !== undefined);
  const reviews = lifts.map((l) => ({ lift: l, review: review(l, changes, request) }));
  const plan = (groupId: string): NewGroupLift[] =>
    reviews.map(({ lift, review: r }, i) => {
      // An offline lift is offline first: it is not sent, whatever else the review found.
      const skip = lift.online ? skipReason(r, body.versions[lift.id]!) : null;
      const state: GroupConfigLiftState = !lift.online ? 'offline' : skip ? 'skipped' : 'pending';
      return { liftId: lift.id, version: body.versions[lift.id]!, commandKey: commandKey(groupId, i), state, reason: skip };
    });
  let rows: NewGroupLift[] = [];
  const groupId = await insertSend(sql, { userId: auth.userId, username: auth.username, idempotencyKey: body.idempotencyKey, selection: body.selection, changes }, (id) => (rows = plan(id)));
  // Two identical clicks at once: the other one's insert won, its send stands.
  if (!groupId) return readSend(sql, auth, (await sendIdByKey(sql, auth.userId, body.idempotencyKey))!);
  const count = (s: GroupConfigLiftState) => rows.filter((r) => r.state === s).length;
  await app.audit({
    action: 'lift.groupConfig',
    result: 'ok',
    userId: auth.userId,
    username: auth.username,
    ip: request.ip,
    targetType: 'groupConfig',
    targetId: groupId,
    detail: { groupId, fields: Object.keys(changes), lifts: rows.length, sent: count('pending'), offline: count('offline'), skipped: count('skipped') },
  });
  const pending = reviews.map((r, i) => ({ ...r, row: rows[i]! })).filter((r) => r.row.state === 'pending');
  const run = sendAll(app, request, groupId, pending).finally(() => running.delete(run));
  running.add(run);
  return readSend(sql, auth, groupId);
}

type Pending = { lift: GroupLift; review: ReturnType<typeof review>; row: NewGroupLift };

async function sendAll(app: FastifyInstance, request: FastifyRequest, groupId: string, pending: Pending[]): Promise<void> {
  await forEachAtMost(pending, SEND_CONCURRENCY, (next) =>
    sendOne(app, request, groupId, next).catch((err) => request.log.error({ err, groupId }, 'group configuration send failed')),
  );
}

/** The state a failed write leaves the lift in. */
function outcomeOf(err: unknown): { state: GroupConfigLiftState; reason: GroupConfigReason; commandId: string | null } {
  if (!(err instanceof AppError)) throw err;
  const result = (err.result ?? {}) as { commandId?: string | null; reason?: RefusalReason | null };
  const commandId = result.commandId ?? null;
  switch (err.code) {
    case 'lift.refused':
      return { state: 'refused', reason: result.reason ?? 'configInvalid', commandId };
    case 'lift.timeout':
      return { state: 'refused', reason: 'timeout', commandId };
    case 'lift.offline':
    case 'lift.noDeviceNo':
    case 'lift.sendFailed':
      return { state: 'offline', reason: 'offline', commandId };
    case 'config.versionConflict':
      return { state: 'skipped', reason: 'versionChanged', commandId };
    case 'forbidden':
      return { state: 'skipped', reason: 'forbidden', commandId };
    default:
      return { state: 'skipped', reason: 'invalid', commandId };
  }
}

async function sendOne(app: FastifyInstance, request: FastifyRequest, groupId: string, { lift, review: r, row }: Pending): Promise<void> {
  const { sql } = app.database;
  const publish = (state: GroupConfigLiftState, reason: GroupConfigReason | null) => app.live.publish([{ type: 'groupConfig', groupId, liftId: lift.id, state, reason }]);
  // A stopping server sends nothing new: the lift was not sent, and nothing sends it later.
  if (app.commands.stopping) {
    if (await moveLift(sql, groupId, lift.id, 'skipped', 'stopped', ['pending'])) await publish('skipped', 'stopped');
    return;
  }
  if (await moveLift(sql, groupId, lift.id, 'sent', null, ['pending'])) await publish('sent', null);
  const role = configRoleFor(request.auth!, { manufacturerOrgId: lift.manufacturer_org_id });
  let outcome: { state: GroupConfigLiftState; reason: GroupConfigReason | null; commandId: string | null };
  try {
    const result = await writeConfig(app, request, lift, r.config!, { version: row.version, confirmReconfigure: true }, { role, source: 'groupConfig', idempotencyKey: row.commandKey });
    // 'accepted' without 'done' in the wait: the lift's final answer moves the row when it comes (ingest).
    outcome = { state: result.state === 'done' ? 'done' : 'sent', reason: null, commandId: result.commandId };
  } catch (err) {
    outcome = outcomeOf(err);
  }
  if (outcome.commandId) await setCommandId(sql, groupId, lift.id, outcome.commandId);
  if (outcome.state !== 'sent' && (await moveLift(sql, groupId, lift.id, outcome.state, outcome.reason, ['pending', 'sent']))) await publish(outcome.state, outcome.reason);
}
