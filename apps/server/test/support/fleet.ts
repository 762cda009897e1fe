import { DEVICE_KINDS } from '@liftlink/protocol';
import { newToken, sha256 } from '../../src/lib/crypto.ts';
import type { SqlExecutor } from '../../src/db/client.ts';

export interface ProvisionedLift {
  id: string;
  deviceNo: string;
  secret: string;
  kind: (typeof DEVICE_KINDS)[number];
  floors: number;
}

/**
 * Lifts written straight into the database (as ensureDemoFleet does), in one statement per
 * thousand: tests and benchmarks that need many lifts without the simulator's behaviour.
 */
export async function provisionLifts(sql: SqlExecutor, prefix: string, count: number): Promise<ProvisionedLift[]> {
  const [maker] = await sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
  const lifts: Omit<ProvisionedLift, 'id'>[] = Array.from({ length: count }, (_, i) => ({
    deviceNo: `${prefix}-${String(i + 1).padStart(5, '0')}`,
    secret: newToken(),
    kind: DEVICE_KINDS[i % DEVICE_KINDS.length]!,
    floors: 2,
  }));
  const out: ProvisionedLift[] = [];
  for (let i = 0; i < lifts.length; i += 1000) {
    const part = lifts.slice(i, i + 1000);
    const rows = await sql.query<{ id: string; device_no: string }>(
      `insert into lifts (device_no, alias, kind, floors, firmware, manufacturer_org_id, iot_secret_hash, iot_issued_at)
       select d, d, k, 2, '1.0.0', $4, h, now() from unnest($1::text[], $2::text[], $3::text[]) as t(d, k, h)
       on conflict (device_no) do update set iot_secret_hash = excluded.iot_secret_hash, iot_issued_at = now()
       returning id, device_no`,
      [part.map((l) => l.deviceNo), part.map((l) => l.kind), part.map((l) => sha256(l.secret)), maker!.id],
    );
    const ids = new Map(rows.map((r) => [r.device_no, r.id]));
    for (const l of part) out.push({ ...l, id: ids.get(l.deviceNo)! });
  }
  return out;
}
