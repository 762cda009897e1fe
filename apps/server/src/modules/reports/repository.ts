import { REPORT_LIST_MAX, type Language, type ReportListQuery, type ReportView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** The organizations whose reports a caller reads: every one, or these. */
export type OrgScope = 'all' | string[];

interface ReportRow {
  id: string;
  org_id: string;
  org_name: string;
  level: 'org' | 'site';
  site: string;
  month: string;
  language: Language;
  created_at: Date;
  created_by: string | null;
  pdf_size: number;
  csv_size: number;
}

const toView = (r: ReportRow): ReportView => ({
  id: r.id,
  orgId: r.org_id,
  orgName: r.org_name,
  site: r.level === 'site' ? r.site : null,
  month: r.month,
  language: r.language,
  createdAt: new Date(r.created_at).toISOString(),
  createdBy: r.created_by,
  pdfSize: Number(r.pdf_size),
  csvSize: Number(r.csv_size),
});

const VIEW = `select r.id, r.org_id, o.name as org_name, r.level, r.site, r.month, r.language, r.created_at, u.username as created_by,
                     octet_length(r.pdf) as pdf_size, octet_length(r.csv) as csv_size
                from reports r join organizations o on o.id = r.org_id left join users u on u.id = r.created_by`;

export interface NewReport {
  orgId: string;
  site: string | null;
  month: string;
  language: Language;
  pdf: Buffer;
  csv: string;
  createdBy: string | null;
}

/**
 * Stores a report. `replace`: a report of the same organization, site, month and language
 * is overwritten (built on demand: the newest figures); else the one stored stays and null is
 * answered (the monthly job on two instances: the first one's report is kept).
 */
export async function saveReport(sql: SqlExecutor, r: NewReport, replace: boolean): Promise<string | null> {
  const [row] = await sql.query<{ id: string }>(
    `insert into reports (org_id, level, site, month, language, pdf, csv, created_by) values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (org_id, level, site, month, language) do ${replace ? 'update set pdf = excluded.pdf, csv = excluded.csv, created_by = excluded.created_by, created_at = now()' : 'nothing'}
     returning id`,
    [r.orgId, r.site === null ? 'org' : 'site', r.site ?? '', r.month, r.language, r.pdf, Buffer.from(r.csv, 'utf8'), r.createdBy],
  );
  return row?.id ?? null;
}

/** The stored report of an organization (or site), month and language, if any. */
export async function findReport(sql: SqlExecutor, orgId: string, site: string | null, month: string, language: Language): Promise<ReportView | null> {
  const [row] = await sql.query<ReportRow>(`${VIEW} where r.org_id = $1 and r.level = $2 and r.site = $3 and r.month = $4 and r.language = $5`, [orgId, site === null ? 'org' : 'site', site ?? '', month, language]);
  return row ? toView(row) : null;
}

export async function reportById(sql: SqlExecutor, id: string, scope: OrgScope): Promise<ReportView | null> {
  const [row] = await sql.query<ReportRow>(`${VIEW} where r.id = $1 and ($2::uuid[] is null or r.org_id = any($2::uuid[]))`, [id, scope === 'all' ? null : scope]);
  return row ? toView(row) : null;
}

/** The reports of the organizations in `scope`, newest month first, then organization and site. */
export async function listReports(sql: SqlExecutor, scope: OrgScope, q: ReportListQuery): Promise<ReportView[]> {
  const rows = await sql.query<ReportRow>(
    `${VIEW} where ($1::uuid[] is null or r.org_id = any($1::uuid[])) and ($2::uuid is null or r.org_id = $2) and ($3::text is null or r.month = $3)
      order by r.month desc, o.name, r.level, r.site, r.language limit ${REPORT_LIST_MAX}`,
    [scope === 'all' ? null : scope, q.orgId ?? null, q.month ?? null],
  );
  return rows.map(toView);
}

/** One file of a report. */
export async function reportBytes(sql: SqlExecutor, id: string, format: 'pdf' | 'csv'): Promise<Buffer> {
  const [row] = await sql.query<{ data: Uint8Array }>(`select ${format === 'pdf' ? 'pdf' : 'csv'} as data from reports where id = $1`, [id]);
  return Buffer.from(row?.data ?? new Uint8Array());
}

/** The organization's name, if it exists. */
export async function orgName(sql: SqlExecutor, orgId: string): Promise<string | null> {
  const [row] = await sql.query<{ name: string }>('select name from organizations where id = $1', [orgId]);
  return row?.name ?? null;
}

/** The organizations in `scope` with the sites of the lifts they operate or made, by name. */
export async function reportTargets(sql: SqlExecutor, scope: OrgScope): Promise<{ orgId: string; orgName: string; sites: string[] }[]> {
  const rows = await sql.query<{ id: string; name: string; sites: string[] | null }>(
    `select o.id, o.name,
            (select array_agg(distinct l.location->>'site' order by l.location->>'site') from lifts l
              where (l.operator_org_id = o.id or l.manufacturer_org_id = o.id) and coalesce(l.location->>'site', '') <> '') as sites
       from organizations o where ($1::uuid[] is null or o.id = any($1::uuid[])) order by o.name`,
    [scope === 'all' ? null : scope],
  );
  return rows.map((r) => ({ orgId: r.id, orgName: r.name, sites: r.sites ?? [] }));
}
