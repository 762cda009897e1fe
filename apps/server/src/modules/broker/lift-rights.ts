import { createHash } from 'node:crypto';
import { DOWNLINK_TOPICS, UPLINK_TOPICS } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** Lift accounts given their rights per call: one dynamic-security message, a few hundred API calls. */
const GRANT_BATCH = 500;

/**
 * The version of the topic lists a lift account's rights derive from. A lift's broker rights
 * are written when its credentials are issued, so a version of the server that adds a topic
 * (a new uplink message) must also give it to every account issued before, or the broker
 * refuses the new messages of every existing lift.
 */
export function liftRightsVersion(): string {
  return createHash('sha256').update(JSON.stringify({ uplink: UPLINK_TOPICS, downlink: DOWNLINK_TOPICS })).digest('hex').slice(0, 16);
}

/**
 * Gives every provisioned lift the rights of today's topic lists, once per change of the
 * lists (recorded per broker in `broker_lift_rights`); returns how many lifts were given them
 * (0: nothing had changed, or `signal` ended the work before all were given them, in which
 * case the version is not recorded and the next start does it again). `grant` must be
 * idempotent: two instances starting together may both run it.
 */
export async function upgradeLiftRights(
  sql: SqlExecutor,
  broker: 'mosquitto' | 'rabbitmq',
  grant: (deviceNos: string[]) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const version = liftRightsVersion();
  const [stored] = await sql.query<{ version: string }>(`select version from broker_lift_rights where broker = $1`, [broker]);
  if (stored?.version === version) return 0;
  const lifts = await sql.query<{ device_no: string }>(`select device_no from lifts where iot_secret_hash is not null and device_no is not null order by device_no`);
  for (let i = 0; i < lifts.length; i += GRANT_BATCH) {
    if (signal?.aborted) return 0;
    await grant(lifts.slice(i, i + GRANT_BATCH).map((l) => l.device_no));
  }
  await sql.query(
    `insert into broker_lift_rights (broker, version) values ($1, $2) on conflict (broker) do update set version = excluded.version, updated_at = now()`,
    [broker, version],
  );
  return lifts.length;
}
