import type { AvailabilityQuery, AvailabilityReport } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { availabilityForOrgs } from '../availability/repository.ts';

/** `month` moved by `delta` months. */
export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + m - 1 + delta;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/**
 * The figures of an organization's report (a row per site) or a site's (a row per lift), from
 * the availability module (docs/insight.md): the 12 months up to `month` for the charts and
 * `month` alone for the rest.
 */
export async function reportFigures(sql: SqlExecutor, orgId: string, site: string | null, month: string, now: Date): Promise<{ year: AvailabilityReport; current: AvailabilityReport }> {
  const cut: Pick<AvailabilityQuery, 'level' | 'orgId' | 'site'> = site === null ? { level: 'sites', orgId } : { level: 'lifts', orgId, site };
  const year = await availabilityForOrgs(sql, [orgId], { ...cut, from: addMonths(month, -11), to: month }, now);
  const current = await availabilityForOrgs(sql, [orgId], { ...cut, from: month, to: month }, now);
  return { year, current };
}
