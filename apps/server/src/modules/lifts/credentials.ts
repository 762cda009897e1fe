import fp from 'fastify-plugin';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { markOffline } from '../ingest/appliers/presence-log.ts';
import { appendLogbook, type LogbookActor } from '../logbook/index.ts';

/**
 * An external broker's account store (Mosquitto's dynamic-security plugin, EMQX's API).
 * The embedded broker needs none: it reads the lift table on every connect.
 */
export interface BrokerAdmin {
  setDeviceCredential(deviceNo: string, secret: string): Promise<void>;
  /** Removes the account and disconnects any client using it. */
  removeDevice(deviceNo: string): Promise<void>;
}

export interface DeviceCredentials {
  /** A new secret for the lift (stored hashed, returned once); the old one stops working at once. `by`: who, for the lift's logbook. */
  issue(liftId: string, by?: LogbookActor): Promise<{ deviceNo: string; secret: string }>;
  /** Revokes the lift's secret and disconnects a lift still using it. */
  revoke(liftId: string, by?: LogbookActor): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    brokerAdmin: BrokerAdmin | null;
    deviceCredentials: DeviceCredentials;
  }
}

export default fp(async (app) => {
  const { sql } = app.database;
  if (!app.hasDecorator('brokerAdmin')) app.decorate('brokerAdmin', null);

  async function deviceNoOf(liftId: string): Promise<string> {
    const [row] = await sql.query<{ device_no: string | null }>('select device_no from lifts where id = $1', [liftId]);
    if (!row) throw new AppError('lift.notFound');
    if (!row.device_no) throw new AppError('lift.noDeviceNo');
    return row.device_no;
  }

  /**
   * Replaces (or, with null, removes) the lift's secret. A lift online with the old one is
   * cut off below, so it goes offline here, in the same transaction, with the reason; the
   * disconnection or will that follows finds it offline and writes nothing more.
   */
  async function setSecret(liftId: string, secretHash: string | null, deviceNo: string, by: LogbookActor | undefined): Promise<void> {
    const changes = await sql.transaction(async (tx) => {
      await tx.query('update lifts set iot_secret_hash = $2, iot_issued_at = case when $2::text is null then null else now() end where id = $1', [liftId, secretHash]);
      const offline = await markOffline(tx, liftId, new Date(), null, 'credentialReset');
      await appendLogbook(tx, { liftId, kind: 'credential', actor: by ?? null, data: { action: secretHash ? 'issued' : 'revoked', deviceNo } });
      return offline;
    });
    await app.live.publish(changes).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
  }

  app.decorate('deviceCredentials', {
    issue: async (liftId, by) => {
      const deviceNo = await deviceNoOf(liftId);
      const secret = newToken();
      await setSecret(liftId, sha256(secret), deviceNo, by);
      if (app.brokerAdmin) await app.brokerAdmin.setDeviceCredential(deviceNo, secret);
      app.kickDevice(deviceNo);
      return { deviceNo, secret };
    },
    revoke: async (liftId, by) => {
      const deviceNo = await deviceNoOf(liftId);
      await setSecret(liftId, null, deviceNo, by);
      if (app.brokerAdmin) await app.brokerAdmin.removeDevice(deviceNo);
      app.kickDevice(deviceNo);
    },
  } satisfies DeviceCredentials);
});
