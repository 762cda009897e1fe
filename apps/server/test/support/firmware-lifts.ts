import { startFleet, type FleetHandle } from '../../../simulator/src/fleet.ts';
import type { OtaSpec } from '../../../simulator/src/firmware-updater.ts';
import { newToken, sha256 } from '../../src/lib/crypto.ts';
import { embeddedBrokerPort } from '../../src/plugins/mqtt.ts';
import type { TestApp } from '../helpers.ts';
import { until } from './ports.ts';

/**
 * Simulated lifts of the seeded manufacturer for the firmware tests: provisioned in the
 * database with broker credentials, running FW-1.0.0 as inclined rack lifts, connected to the
 * test app's embedded broker and trusting its maker's signing key. `stop` ends them all.
 */
export class FirmwareLifts {
  private readonly fleets: FleetHandle[] = [];
  private count = 0;

  constructor(
    private readonly t: TestApp,
    /** Device numbers start with it: unique per test file and database. */
    private readonly prefix: string,
    /** The server's HTTP address (the image's download base). */
    private readonly base: string,
    /** The maker's public key the bench wrote into the lifts. */
    private readonly publicKey: string,
  ) {}

  /** A lift in the database with its credentials, not connected; `operatorOrgId` operates it. */
  async provision(operatorOrgId: string | null = null): Promise<{ liftId: string; deviceNo: string; secret: string }> {
    // zero-padded: campaigns take lifts in device-number order
    const deviceNo = `${this.prefix}-${String(++this.count).padStart(3, '0')}`;
    const secret = newToken();
    const [row] = await this.t.database.sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, firmware, manufacturer_org_id, operator_org_id, iot_secret_hash, iot_issued_at)
       values ($1, 'inclinedStraightRack', 2, 'FW-1.0.0', (select id from organizations where kind = 'manufacturer' order by created_at limit 1), $2, $3, now())
       returning id`,
      [deviceNo, operatorOrgId, sha256(secret)],
    );
    return { liftId: row!.id, deviceNo, secret };
  }

  /** A provisioned lift running on the embedded broker; resolves once the server has it online. */
  async connect(o: { ota?: OtaSpec; operatorOrgId?: string | null } = {}) {
    const lift = await this.provision(o.operatorOrgId ?? null);
    const fleet = await startFleet({
      mqttUrl: `mqtt://127.0.0.1:${embeddedBrokerPort(this.t.app)}`,
      lifts: [
        {
          deviceNo: lift.deviceNo,
          secret: lift.secret,
          kind: 'inclinedStraightRack',
          floors: 2,
          firmware: 'FW-1.0.0',
          firmwareKeys: [this.publicKey],
          ota: { waitScale: 0.001, ...o.ota },
        },
      ],
      firmwareBaseUrl: this.base,
      tickMs: 50,
      statusIdleMs: 1_000,
      reconnectMs: 100,
      log: () => {},
    });
    this.fleets.push(fleet);
    await until('the lift online', async () => {
      const [l] = await this.t.database.sql.query<{ online: boolean }>(`select online from lifts where id = $1`, [lift.liftId]);
      return l?.online === true;
    });
    return { ...lift, fleet };
  }

  async stop(): Promise<void> {
    for (const fleet of this.fleets.splice(0)) await fleet.stop();
  }
}
