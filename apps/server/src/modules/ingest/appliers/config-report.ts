import type { LiveChange } from '@liftlink/protocol';
import { appendLogbook } from '../../logbook/index.ts';
import type { Tx, UplinkOf } from './uplink.ts';

/**
 * Configuration reports: the lift's configuration is the truth (a report older than the
 * stored one changes nothing); a new version is logged with before and after, attributed
 * to the user whose command caused it.
 */
export async function applyConfigReports(tx: Tx, reports: UplinkOf<'config/report'>[], live: LiveChange[]): Promise<void> {
  for (const m of reports) {
    const [before] = await tx.query<{ config: Record<string, unknown> | null; config_version: number }>(
      `select config, config_version from lifts where id = $1 and config_seq < $2 for no key update`,
      [m.liftId, m.message.seq],
    );
    if (!before) continue;
    await tx.query(`update lifts set config = $2::jsonb, config_version = $3, config_seq = $4, config_at = $5 where id = $1`, [
      m.liftId,
      JSON.stringify(m.message.config),
      m.message.version,
      m.message.seq,
      m.message.ts,
    ]);
    if (before.config_version !== m.message.version) {
      const [cmd] = m.message.commandId
        ? await tx.query<{ user_id: string | null; username: string | null; kind: string }>(`select user_id, username, kind from lift_commands where id = $1 and lift_id = $2`, [m.message.commandId, m.liftId])
        : [];
      await tx.query(
        `insert into lift_config_log (lift_id, ts, user_id, username, source, command_id, version, before, after, result)
         values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, 'applied')`,
        [m.liftId, m.message.ts, cmd?.user_id ?? null, cmd?.username ?? null, cmd?.kind === 'config/set' ? 'cloud' : 'device', m.message.commandId ?? null, m.message.version, JSON.stringify(before.config), JSON.stringify(m.message.config)],
      );
      await appendLogbook(tx, { liftId: m.liftId, kind: 'config', actor: cmd?.user_id ? { id: cmd.user_id, name: cmd.username ?? '' } : null, data: { source: cmd?.kind === 'config/set' ? 'cloud' : 'device', commandId: m.message.commandId ?? null, versionBefore: before.config_version, versionAfter: m.message.version } });
    }
    live.push({ type: 'config', liftId: m.liftId, version: m.message.version });
  }
}
