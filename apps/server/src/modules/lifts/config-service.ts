import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbiddenConfigKeys, validateConfigChange, type CommandResult, type ConfigLogEntry, type IotInfo, type LiftAccess, type LiftConfig } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { sendCommand } from '../commands/service.ts';
import type { OwnedLift } from './scope.ts';

/** What the editor sent besides the configuration: the version it started from and whether it confirmed a reconfiguration. */
export interface ConfigWrite {
  version: number;
  confirmReconfigure?: boolean | undefined;
}

export interface ConfigWriteOptions {
  /** The caller's configuration role: fields beyond it are refused (the bench writes every field). */
  role?: LiftAccess['configRole'];
  /** Which bench step wrote it, kept with the command's arguments. */
  source?: string;
  /** The command's idempotency key (a group send records each lift's config/set under its own). */
  idempotencyKey?: string;
}

/**
 * The one way a configuration reaches a lift, from the lift page and the factory bench:
 * the whole configuration must be valid for this lift, within the caller's role, confirmed
 * when the lift is configured already, and based on the lift's current version. Then it is
 * sent over MQTT (config/set) and the lift answers.
 */
export async function writeConfig(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, next: LiftConfig, write: ConfigWrite, opts: ConfigWriteOptions = {}): Promise<CommandResult> {
  const current = lift.config as LiftConfig | null;
  const issues = validateConfigChange(current, next, lift.floors);
  if (issues.length) throw new AppError('validation.failed', { issues: issues.map((i) => ({ ...i, path: `config.${i.path}` })) });
  if (opts.role) {
    const forbidden = forbiddenConfigKeys(current, next, opts.role);
    if (forbidden.length) throw new AppError('forbidden', { fields: forbidden });
  }
  if (lift.config_version > 0 && !write.confirmReconfigure) throw new AppError('config.reconfigure', { version: lift.config_version });
  if (write.version !== lift.config_version) throw new AppError('config.versionConflict', { version: lift.config_version });
  const { version } = write;
  return sendCommand(app, request, lift, { kind: 'config/set', name: 'configSet', args: opts.source ? { version, source: opts.source } : { version }, payload: { version, config: next }, ...(opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}) });
}

/** A page of a lift's configuration log, newest first. */
export async function configLogPage(sql: SqlExecutor, liftId: string, q: { page: number; pageSize: number }): Promise<{ list: ConfigLogEntry[]; total: number }> {
  const [count] = await sql.query<{ n: string }>('select count(*) as n from lift_config_log where lift_id = $1', [liftId]);
  const list = await sql.query<ConfigLogEntry>(
    `select id, ts, username, source, command_id as "commandId", version, before, after, result from lift_config_log where lift_id = $1 order by ts desc, id desc limit $2 offset $3`,
    [liftId, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return { list, total: Number(count!.n) };
}

/**
 * Replaces a lift's IoT details and, when they changed, records the change in the lift's
 * configuration log (source `iot`, who, before and after) in the same transaction. Returns
 * what the details were.
 */
export async function updateIotInfo(sql: SqlExecutor, liftId: string, next: IotInfo, by: { userId: string; username: string }): Promise<IotInfo> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ iot_info: IotInfo }>('select iot_info from lifts where id = $1 for no key update', [liftId]);
    const before = row!.iot_info;
    if (JSON.stringify(sortedEntries(before)) === JSON.stringify(sortedEntries(next))) return before;
    await tx.query('update lifts set iot_info = $2::jsonb where id = $1', [liftId, JSON.stringify(next)]);
    await tx.query(
      `insert into lift_config_log (lift_id, user_id, username, source, before, after, result) values ($1, $2, $3, 'iot', $4::jsonb, $5::jsonb, 'applied')`,
      [liftId, by.userId, by.username, JSON.stringify(before), JSON.stringify(next)],
    );
    return before;
  });
}

function sortedEntries(o: object): [string, unknown][] {
  return Object.entries(o).sort(([a], [b]) => a.localeCompare(b));
}
