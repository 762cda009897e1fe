import type { ManufactureLift } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** What the bench registers of a controller. */
export interface Registration {
  deviceNo: string;
  kind: ManufactureLift['kind'];
  floors: number;
  firmware: string;
  controllerSerial: string;
}

/**
 * A new lift record for a controller, made by `makerOrgId`; null when the device number or
 * the controller was registered meanwhile (two benches racing for one number).
 */
export async function insertLift(sql: SqlExecutor, r: Registration, makerOrgId: string, username: string): Promise<string | null> {
  const [created] = await sql.query<{ id: string }>(
    `insert into lifts (device_no, kind, floors, firmware, controller_serial, manufacturer_org_id, registered_at, registered_by)
     values ($1, $2, $3, $4, $5, $6, now(), $7) on conflict do nothing returning id`,
    [r.deviceNo, r.kind, r.floors, r.firmware, r.controllerSerial, makerOrgId, username],
  );
  return created?.id ?? null;
}

/** Writes the registration onto the lift; the first registration's time and user are kept. */
export async function updateRegistration(sql: SqlExecutor, liftId: string, r: Registration, username: string): Promise<void> {
  await sql.query(
    `update lifts set device_no = $2, kind = $3, floors = $4, firmware = $5, controller_serial = $6,
            registered_at = coalesce(registered_at, now()), registered_by = coalesce(registered_by, $7) where id = $1`,
    [liftId, r.deviceNo, r.kind, r.floors, r.firmware, r.controllerSerial, username],
  );
}
