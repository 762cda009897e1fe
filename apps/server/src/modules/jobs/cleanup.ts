import type { FastifyInstance } from 'fastify';
import type { SqlExecutor } from '../../db/client.ts';
import { purgeRateLimits } from '../../plugins/rate-limit-store.ts';
import { THROTTLE } from '../auth/throttle.ts';
import { deleteInBatches } from './batched-delete.ts';
import type { JobDefinition } from './plugin.ts';

/**
 * How long the short-lived rows are kept once they no longer do anything
 * (docs/operations.md "Housekeeping"). Every age leaves room for a look by an operator.
 */
export const CLEANUP_AGES = {
  /** Signed-out, revoked or expired sessions (the account page lists only live ones). */
  endedSessionDays: 7,
  /** Used, replaced or expired SMS codes and activation/reset links (the resend pause reads the newest). */
  spentCodeDays: 1,
  /** Alert notifications (bell, mail) of alerts settled this long ago. */
  settledAlertDeliveryDays: 180,
  /** Firmware download tokens past their expiry (a lift resuming a download after it is offered again gets a new one). */
  expiredDownloadTokenDays: 1,
} as const;

/**
 * Removes what only grows: rate-limit windows that ended, ended sessions, spent one-time
 * codes, sign-in throttle rows past their window and block, old alert notifications, and
 * firmware download tokens that expired (each new offer also removes its lift's expired ones).
 */
export async function cleanup(
  sql: SqlExecutor,
  signal?: AbortSignal,
): Promise<Record<string, number>> {
  return {
    rateLimits: await purgeRateLimits(sql),
    sessions: await deleteInBatches(
      sql,
      'sessions',
      `(revoked_at is not null and revoked_at < now() - make_interval(days => $1)) or expires_at < now() - make_interval(days => $1)`,
      [CLEANUP_AGES.endedSessionDays],
      signal,
    ),
    oneTimeCodes: await deleteInBatches(
      sql,
      'one_time_codes',
      `(used_at is not null or expires_at < now()) and created_at < now() - make_interval(days => $1)`,
      [CLEANUP_AGES.spentCodeDays],
      signal,
    ),
    throttle: await deleteInBatches(
      sql,
      'auth_throttle',
      `first_failure_at < now() - make_interval(secs => $1::double precision / 1000) and (blocked_until is null or blocked_until < now())`,
      [THROTTLE.windowMs],
      signal,
    ),
    alertDeliveries: await deleteInBatches(
      sql,
      'alert_deliveries',
      `alert_id in (select id from alerts where coalesce(cleared_at, acknowledged_at) < now() - make_interval(days => $1))`,
      [CLEANUP_AGES.settledAlertDeliveryDays],
      signal,
    ),
    downloadTokens: await deleteInBatches(
      sql,
      'firmware_download_tokens',
      `expires_at < now() - make_interval(days => $1)`,
      [CLEANUP_AGES.expiredDownloadTokenDays],
      signal,
    ),
  };
}

export const cleanupJob: JobDefinition = {
  name: 'cleanup',
  everyMs: 60 * 60_000,
  firstAfterMs: 60_000,
  run: (app: FastifyInstance, signal: AbortSignal) => cleanup(app.database.sql, signal),
};
