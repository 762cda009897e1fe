import type { AvailabilityLevel, AvailabilityQuery, AvailabilityRow } from '@liftlink/protocol';

/** One step of the drill-down: the level shown and what was chosen to get there. */
export interface DrillStep {
  level: AvailabilityLevel;
  orgId?: string;
  site?: string;
  liftId?: string;
  /** The name of the row that was opened (the breadcrumb's text); none for the first step. */
  name?: string;
}

/** Where the drill-down starts: the caller's organizations. */
export const DRILL_START: DrillStep[] = [{ level: 'orgs' }];

const NEXT: Record<AvailabilityLevel, AvailabilityLevel | null> = {
  orgs: 'sites',
  sites: 'lifts',
  lifts: 'lift',
  lift: null,
};

/** Whether a row of this level opens a further level. */
export function canOpen(level: AvailabilityLevel): boolean {
  return NEXT[level] !== null;
}

/** The path after opening `row` of the last step's level. */
export function openRow(path: DrillStep[], row: AvailabilityRow): DrillStep[] {
  const here = path[path.length - 1]!;
  const level = NEXT[here.level];
  if (!level) return path;
  const step: DrillStep =
    here.level === 'orgs'
      ? { level, orgId: row.key, name: row.name }
      : here.level === 'sites'
        ? { level, orgId: here.orgId, site: row.key, name: row.name }
        : { level, orgId: here.orgId, site: here.site, liftId: row.key, name: row.name };
  return [...path, step];
}

/** The query of the path's last step over a month range. */
export function queryOf(path: DrillStep[], from: string, to: string): AvailabilityQuery {
  const { level, orgId, site, liftId } = path[path.length - 1]!;
  return {
    level,
    from,
    to,
    ...(level === 'sites' || level === 'lifts' ? { orgId } : {}),
    ...(level === 'lifts' ? { site } : {}),
    ...(level === 'lift' ? { liftId } : {}),
  };
}

/** `YYYY-MM` of a date in UTC, and of `months` months before it. */
export function monthOf(date: Date, monthsBack = 0): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - monthsBack, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
