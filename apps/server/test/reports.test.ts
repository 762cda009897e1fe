import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMonth } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { addMonths } from '../src/modules/reports/figures.ts';
import { dueReportMonth, sendMonthlyReports } from '../src/modules/reports/job.ts';
import { createMailer } from '../src/plugins/messaging.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { parseMail, startSmtp, type ReceivedMail } from './support/smtp.ts';

const H = 3_600_000;
const MIN = 60_000;

/** The PDF attached to a multipart mail (base64 part of type application/pdf). */
function attachedPdf(mail: ReceivedMail): Buffer | null {
  const part = mail.raw.split(/\r?\n--/).find((p) => /content-type:\s*application\/pdf/i.test(p));
  if (!part) return null;
  const [, ...rest] = part.split(/\r?\n\r?\n/);
  return Buffer.from(rest.join('').replace(/--.*$/s, '').replace(/\s+/g, ''), 'base64');
}

/** The plain-text part of a multipart mail, decoded. */
function mailText(mail: ReceivedMail): string {
  const part = mail.raw.split(/\r?\n--/).find((p) => /content-type:\s*text\/plain/i.test(p)) ?? '';
  return parseMail(part.replace(/^[^\r\n]*\r?\n/, '')).text.replace(/\r\n/g, '\n');
}

/**
 * Scheduled reports (docs/reports.md) through the API and the monthly job, from a made-up
 * history written into the availability rollup (one row per lift and month, as ingest books
 * it): the PDF read back with poppler's pdftotext in the three languages, the CSV, the
 * organization scope, and the monthly mail through a real SMTP listener. The organization
 * "Ops" has three lifts on two sites, "Поликлиника № 3" (A, B) and "社区服务中心" (C);
 * "Far" one lift. With REPORTS_PDF_KEEP=<dir> the PDFs are kept there to be looked at.
 *
 * Last month, hours (in service, faulted, offline, maintenance), trips, failures, incidents,
 * acknowledged (count, sum), resolved (count, sum):
 *   A: 600, 10, 20, 90 | 1200 | 2 | 3 | 2, 90 min | 2, 8 h   → 95.2 %, MTTA 45 min, MTTR 4 h, MTBF 300 h
 *   B: 700,  0, 20,  0 |  800 | 0 | 0 | –         | –        → 97.2 %
 *   C: 360, 360, 0,  0 |  100 | 1 | 1 | 1, 2 h    | –        → 50.0 %, MTTA 2 h, MTBF 360 h
 * Site "Поликлиника № 3": 1300/1350 = 96.3 %, 2000 trips, MTBF 650 h = 27 d 2 h.
 * Organization: 1660/2070 = 80.2 %, 2100 trips, 3 failures, 4 incidents, MTTA 210/3 = 70 min,
 * MTTR 4 h, MTBF 1660/3 h = 553 h 20 min = 23 d 1 h. The month before: A 700 h in service,
 * 44 h offline, 500 trips → 94.1 %.
 */
describe.each(DB_KINDS)('scheduled reports on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const month = addMonths(currentMonth(), -1);
  const before = addMonths(month, -1);
  const ids: Record<string, string> = {};
  let opsId: string;
  let farId: string;
  type U = { id: string; token: string; username: string };
  let op: U, opRu: U, opOff: U, far: U;
  const api = (u: U) => client(t.app, u.token);
  const SITE_1 = 'Поликлиника № 3';
  const SITE_2 = '社区服务中心';

  /** The PDF's text (no-break spaces as spaces, so "80,2 %" reads as written). */
  function text(pdf: Buffer, name: string): string {
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, pdf);
    if (process.env.REPORTS_PDF_KEEP) copyFileSync(file, path.join(process.env.REPORTS_PDF_KEEP, `${kind}-${name}.pdf`));
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[\u00a0\u202f]/g, ' ');
  }
  const row = (liftId: string, m: string, v: { inService: number; faulted?: number; offline?: number; maintenance?: number; trips: number; failures?: number; incidents?: number; ack?: [number, number]; restore?: [number, number] }) =>
    t.database.sql.query(
      `insert into lift_availability_monthly (lift_id, month, in_service_ms, faulted_ms, offline_ms, maintenance_ms, trips, failures, incidents, ack_count, ack_ms_sum, restore_count, restore_ms_sum)
       values ($1, $2::date, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [liftId, `${m}-01`, v.inService * H, (v.faulted ?? 0) * H, (v.offline ?? 0) * H, (v.maintenance ?? 0) * H, v.trips, v.failures ?? 0, v.incidents ?? 0, v.ack?.[0] ?? 0, v.ack?.[1] ?? 0, v.restore?.[0] ?? 0, v.restore?.[1] ?? 0],
    );
  /**
   * Text in one line, for comparing a table row: whitespace runs as one space, and none between
   * a number and its unit ("4 h" and "4h" both), as pdftotext joins some of these by their gap.
   */
  const flat = (s: string) => s.replace(/\s+/g, ' ').replace(/(\d) (?=[a-zа-я])/gi, '$1').trim();
  const generate = (u: U, request: Record<string, unknown>) => api(u).post('/auth/access/dashboard/reports/generate', request);
  const download = async (u: U, id: string, format: 'pdf' | 'csv') => {
    const res = await api(u).get(`/auth/access/dashboard/reports/${format}?id=${id}`);
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'reports-'));
    smtp = await startSmtp();
    t = await startTestApp(kind, { REPORT_MAIL_HOUR: '0', PUBLIC_URL: 'https://lifts.example.test' });
    (t.app as unknown as { mailer: unknown }).mailer = createMailer(`smtp://127.0.0.1:${smtp.port}`, 'LiftLink <no-reply@liftlink.test>', t.dataDir);
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const admin = client(t.app, adminToken);
    await ensureDemoFleet(t.database.sql, 4);
    for (const l of body(await admin.get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
    opsId = body(await admin.post('/auth/access/system/orgs/create', { name: `Ops ${kind}`, kind: 'operator' })).result.id;
    farId = body(await admin.post('/auth/access/system/orgs/create', { name: `Far ${kind}`, kind: 'operator' })).result.id;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: opsId, liftIds: [ids['DEMO-0001'], ids['DEMO-0002'], ids['DEMO-0003']] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: farId, liftIds: [ids['DEMO-0004']] });
    const place = (deviceNo: string, alias: string, site: string) => t.database.sql.query(`update lifts set alias = $2, location = location || jsonb_build_object('site', $3::text) where device_no = $1`, [deviceNo, alias, site]);
    await place('DEMO-0001', 'Lift A', SITE_1);
    await place('DEMO-0002', 'Lift B', SITE_1);
    await place('DEMO-0003', 'Lift C', SITE_2);
    await place('DEMO-0004', 'Lift D', 'Far away');
    await row(ids['DEMO-0001']!, month, { inService: 600, faulted: 10, offline: 20, maintenance: 90, trips: 1200, failures: 2, incidents: 3, ack: [2, 90 * MIN], restore: [2, 8 * H] });
    await row(ids['DEMO-0002']!, month, { inService: 700, offline: 20, trips: 800 });
    await row(ids['DEMO-0003']!, month, { inService: 360, faulted: 360, trips: 100, failures: 1, incidents: 1, ack: [1, 2 * H] });
    await row(ids['DEMO-0001']!, before, { inService: 700, offline: 44, trips: 500 });
    await row(ids['DEMO-0004']!, month, { inService: 100, offline: 620, trips: 7 });
    op = await userWithRole(t, adminToken, 'operator', `rop-${kind}`, opsId);
    opRu = await userWithRole(t, adminToken, 'viewer', `ropru-${kind}`, opsId);
    opOff = await userWithRole(t, adminToken, 'operator', `ropoff-${kind}`, opsId);
    far = await userWithRole(t, adminToken, 'operator', `rfar-${kind}`, farId);
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds an organization report on demand: the month, the key figures, a row per site, in English', async () => {
    const res = await generate(op, { orgId: opsId, month, language: 'en-US' });
    expect(res.statusCode).toBe(200);
    const view = body(res).result;
    expect(view).toMatchObject({ orgId: opsId, orgName: `Ops ${kind}`, site: null, month, language: 'en-US', createdBy: op.username });
    const pdf = await download(op, view.id, 'pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const s = text(pdf, 'org-en-US');
    expect(s).toContain('Monthly availability report');
    expect(s).toContain(`Ops ${kind}`);
    expect(s).toContain('Whole organization (all sites)');
    expect(s).toContain(`(${month})`);
    expect(s).toContain(op.username);
    expect(s).toContain('80.2%');
    expect(s).toContain('2,100');
    expect(s).toContain('1 h 10 min'); // MTTA
    expect(s).toContain('23 d 1 h'); // MTBF
    expect(s).toContain('Availability, last 12 months');
    expect(s).toContain('Trips, last 12 months');
    expect(s).toContain('94.1%'); // the month before, on the chart
    expect(s).toMatch(/In service\s+1660 h|In service\s+69 d 4 h/);
    expect(s).toContain('Planned maintenance');
    const lines = s.split('\n');
    const site1 = lines.find((l) => l.includes(SITE_1))!;
    expect(flat(site1)).toContain(flat(`${SITE_1} 2 96.3% 2,000 2 3 45 min 4 h 27 d 2 h`));
    const site2 = lines.find((l) => l.includes(SITE_2) && l.includes('%'))!;
    expect(flat(site2)).toContain(flat(`${SITE_2} 1 50.0% 100 1 1 2 h — 15 d`));
    const total = lines.find((l) => /^\s*Total\s/.test(l))!;
    expect(flat(total)).toBe(flat('Total 3 80.2% 2,100 3 4 1 h 10 min 4 h 23 d 1 h'));
    expect(s).not.toContain('Far away');
  });

  it('writes the report in Russian and in Chinese with their numbers and durations', async () => {
    const ru = body(await generate(op, { orgId: opsId, month, language: 'ru-RU' })).result;
    const r = text(await download(op, ru.id, 'pdf'), 'org-ru-RU');
    expect(r).toContain('Ежемесячный отчёт о доступности');
    expect(r).toContain('Вся организация (все объекты)');
    expect(flat(r)).toContain(flat('Итого 3 80,2 % 2 100 3 4 1 ч 10 мин 4 ч 23 д 1 ч'));
    expect(flat(r)).toContain(flat(`${SITE_1} 2 96,3 % 2 000 2 3 45 мин 4 ч 27 д 2 ч`));
    const zh = body(await generate(op, { orgId: opsId, month, language: 'zh-CN' })).result;
    const z = text(await download(op, zh.id, 'pdf'), 'org-zh-CN');
    expect(z).toContain('可用性月报');
    expect(z).toContain('整个组织（所有站点）');
    expect(flat(z)).toContain(flat('合计 3 80.2% 2,100 3 4 1小时10分钟 4小时 23天1小时'));
    expect(flat(z)).toContain(flat(`${SITE_2} 1 50.0% 100 1 1 2小时 — 15天`));
  });

  it('builds a site report with a row per lift, and its CSV with a byte order mark and the header in the language', async () => {
    const view = body(await generate(op, { orgId: opsId, site: SITE_1, month, language: 'en-US' })).result;
    expect(view.site).toBe(SITE_1);
    const s = text(await download(op, view.id, 'pdf'), 'site-en-US');
    expect(s).toContain(SITE_1);
    expect(s).toContain('Figures by lift');
    expect(flat(s)).toContain(flat('Lift A 1 95.2% 1,200 2 3 45 min 4 h 12 d 12 h'));
    expect(flat(s)).toContain(flat('Lift B 1 97.2% 800 0 0 — — —'));
    expect(s).not.toContain('Lift C');
    const csv = (await download(op, view.id, 'csv')).toString('utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('Lift,Lifts,Availability (%),Trips,Failures,Incidents,MTTA (min),MTTR (min),MTBF (h),In service (h),Faulted (h),Emergency stop (h),Locked out (h),Disabled (h),Offline (h),Planned maintenance (h)');
    expect(lines[1]).toBe('"Lift A","1","95.24","1200","2","3","45","240","300","600","10","0","0","0","20","90"');
    expect(lines[2]).toBe('"Lift B","1","97.22","800","0","0","","","","700","0","0","0","0","20","0"');
    expect(lines[3]).toBe('"Total","2","96.3","2000","2","3","45","240","650","1300","10","0","0","0","40","90"');
    const ru = body(await generate(op, { orgId: opsId, month, language: 'ru-RU' })).result;
    const ruCsv = (await download(op, ru.id, 'csv')).toString('utf8');
    expect(ruCsv.slice(1).split('\r\n')[0]).toMatch(/^Объект,Лифты,Доступность \(%\),Поездки,/);
    expect(ruCsv).toContain(`"${SITE_2}","1","50","100","1","1","120","","360","360","360"`);
  });

  it('keeps one report per organization, site, month and language: building again replaces it', async () => {
    const first = body(await generate(op, { orgId: opsId, month, language: 'en-US' })).result;
    const again = body(await generate(op, { orgId: opsId, month, language: 'en-US' })).result;
    expect(again.id).toBe(first.id);
    const list = body(await api(op).get(`/auth/access/dashboard/reports?month=${month}`)).result.list;
    expect(list.filter((r: any) => r.site === null && r.language === 'en-US')).toHaveLength(1);
    expect(list.map((r: any) => `${r.site ?? '-'}/${r.language}`).sort()).toEqual(['-/en-US', '-/ru-RU', '-/zh-CN', `${SITE_1}/en-US`].sort());
  });

  it('refuses another organization: not found to build, list or download; a future month is invalid', async () => {
    const mine = body(await api(op).get(`/auth/access/dashboard/reports?month=${month}`)).result.list[0];
    const res = await generate(far, { orgId: opsId, month });
    expect(res.statusCode).toBe(404);
    expect(body(res).code).toBe('org.notFound');
    for (const format of ['pdf', 'csv']) {
      const file = await api(far).get(`/auth/access/dashboard/reports/${format}?id=${mine.id}`);
      expect(file.statusCode).toBe(404);
      expect(body(file).code).toBe('report.notFound');
    }
    expect(body(await api(far).get('/auth/access/dashboard/reports')).result.list).toEqual([]);
    const targets = body(await api(far).get('/auth/access/dashboard/reports/targets')).result.list;
    expect(targets).toEqual([{ orgId: farId, orgName: `Far ${kind}`, sites: ['Far away'] }]);
    const future = await generate(op, { orgId: opsId, month: addMonths(currentMonth(), 1) });
    expect(future.statusCode).toBe(400);
    expect(JSON.stringify(body(future).result)).toContain('validation.monthFuture');
  });

  it('mails last month\'s report once to exactly the users who chose it, in their language, with the PDF, on two instances at once', async () => {
    const setup = async (u: U, email: string, language: string, mailReport: boolean) => {
      await t.database.sql.query(`update users set email = $2, language = $3 where id = $1`, [u.id, email, language]);
      const settings = { mailFaults: false, mailHelp: false, mailOffline: false, offlineMinutes: 60, liftIds: [], mailMaintenance: false, mailReport };
      expect((await api(u).post('/auth/access/account/notifications/update', settings)).statusCode).toBe(200);
    };
    await setup(op, `op.${kind}@example.test`, 'en-US', true);
    await setup(opRu, `opru.${kind}@example.test`, 'ru-RU', true);
    await setup(opOff, `opoff.${kind}@example.test`, 'en-US', false);
    await setup(far, `far.${kind}@example.test`, 'zh-CN', true);
    expect(body(await api(op).get('/auth/access/account/notifications')).result.mailReport).toBe(true);
    expect(dueReportMonth(new Date(), 0)).toBe(month);

    // Two instances' runs at once (their claims race on the mark), then a later run.
    const stop = new AbortController();
    await Promise.all([sendMonthlyReports(t.app, stop.signal), sendMonthlyReports(t.app, stop.signal)]);
    await t.app.jobs.run('monthly-report');
    const mails = smtp.mails.filter((m) => m.to.some((a) => a.endsWith(`.${kind}@example.test`)));
    expect(mails.map((m) => m.to[0]).sort()).toEqual([`far.${kind}@example.test`, `op.${kind}@example.test`, `opru.${kind}@example.test`]);

    const en = mails.find((m) => m.to[0] === `op.${kind}@example.test`)!;
    expect(en.subject).toBe(`LiftLink availability report ${month}: Ops ${kind}`);
    expect(mailText(en)).toMatch(/^The availability report of Ops \w+ for \w+ \d{4} is attached as a PDF\.\nAvailability 80\.2%, 2,100 trips, 3 failures\./);
    expect(mailText(en)).toMatch(/https:\/\/lifts\.example\.test\/dashboard\/reports\?id=[0-9a-f-]{36}\n/);
    expect(mailText(en)).toContain(`- ${SITE_2}: https://lifts.example.test/dashboard/reports?id=`);
    const enPdf = text(attachedPdf(en)!, 'mail-en-US');
    expect(enPdf).toContain('Monthly availability report');
    // The month's English report was built on demand before: that stored one is sent.
    expect(enPdf).toContain(`Generated by`);
    expect(enPdf).toContain(op.username);
    expect(flat(enPdf)).toContain(flat('Total 3 80.2% 2,100 3 4 1 h 10 min 4 h 23 d 1 h'));
    const ru = mails.find((m) => m.to[0] === `opru.${kind}@example.test`)!;
    expect(ru.subject).toBe(`LiftLink, отчёт о доступности за ${month}: Ops ${kind}`);
    expect(flat(text(attachedPdf(ru)!, 'mail-ru-RU'))).toContain(flat('Итого 3 80,2 %'));
    const zh = mails.find((m) => m.to[0] === `far.${kind}@example.test`)!;
    expect(zh.subject).toBe(`LiftLink 可用性月报 ${month}：Far ${kind}`);
    const zhPdf = text(attachedPdf(zh)!, 'mail-zh-CN');
    expect(zhPdf).toContain('每月自动生成');
    expect(flat(zhPdf)).toContain(flat('Far away 1 13.9% 7'));
    expect(zhPdf).not.toContain(SITE_1);

    // Stored once per organization, site, month and language; the on-demand English one was kept.
    const stored = await t.database.sql.query<{ org_id: string; level: string; site: string; language: string; created_by: string | null }>(`select org_id, level, site, language, created_by from reports where month = $1 order by org_id, level, site, language`, [month]);
    const ops = stored.filter((r) => r.org_id === opsId).map((r) => `${r.level}/${r.site}/${r.language}/${r.created_by ? 'user' : 'job'}`);
    expect(ops.sort()).toEqual([
      'org//en-US/user',
      'org//ru-RU/user',
      'org//zh-CN/user',
      `site/${SITE_1}/en-US/user`,
      `site/${SITE_1}/ru-RU/job`,
      `site/${SITE_2}/en-US/job`,
      `site/${SITE_2}/ru-RU/job`,
    ].sort());
    expect(stored.filter((r) => r.org_id === farId).map((r) => `${r.level}/${r.site}/${r.language}`).sort()).toEqual(['org//zh-CN', 'site/Far away/zh-CN']);
  });

  it('knows when the month\'s reports are due: from the first day\'s hour on, last month', () => {
    expect(dueReportMonth(new Date('2026-12-01T04:59:00Z'), 5)).toBeNull();
    expect(dueReportMonth(new Date('2026-12-01T05:00:00Z'), 5)).toBe('2026-11');
    expect(dueReportMonth(new Date('2026-12-20T00:00:00Z'), 5)).toBe('2026-11');
    expect(dueReportMonth(new Date('2027-01-01T06:00:00Z'), 5)).toBe('2026-12');
  });
});
