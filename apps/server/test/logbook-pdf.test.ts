import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { appendLogbookNow } from '../src/modules/logbook/index.ts';
import { pdfFont } from '../src/lib/pdf-font.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/**
 * The logbook's PDF export (docs/logbook.md), read back with poppler's pdftotext: the lift,
 * the entries in words in the user's language (Russian and Chinese texts in one file), the
 * chain's verification, a tampered chain's break; permission and scope as the CSV export's.
 * With LOGBOOK_PDF_KEEP=<dir> the PDFs are kept there to be looked at (pdftoppm -png).
 */
describe.each(DB_KINDS)('the logbook PDF on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let liftId: string;
  let otherLiftId: string;
  let deviceNo: string;
  const u = {} as Record<'anna' | 'vera' | 'otto', { id: string; username: string; api: ReturnType<typeof client> }>;

  const exportPdf = (who: ReturnType<typeof client>, extra: Record<string, unknown> = {}, id = liftId) => who.post('/auth/access/lift/logbook/export', { liftId: id, format: 'pdf', ...extra });
  const language = (who: 'anna', lang: string) => t.database.sql.query(`update users set language = $2 where id = $1`, [u[who].id, lang]);
  /** The PDF's text, pages in order (pdftotext keeps the reading order of each row). */
  function text(pdf: Buffer, name: string): string {
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, pdf);
    if (process.env.LOGBOOK_PDF_KEEP) copyFileSync(file, path.join(process.env.LOGBOOK_PDF_KEEP, `${kind}-${name}.pdf`));
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  }
  const asAttacker = async (statement: string, params: unknown[]) => {
    await t.database.sql.transaction(async (tx) => {
      await tx.exec('alter table lift_logbook disable trigger lift_logbook_append_only');
      await tx.query(statement, params);
      await tx.exec('alter table lift_logbook enable trigger lift_logbook_append_only');
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'logbook-pdf-'));
    t = await startTestApp(kind);
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const admin = client(t.app, adminToken);
    const fleet = await ensureDemoFleet(t.database.sql, 2);
    liftId = fleet[0]!.id;
    otherLiftId = fleet[1]!.id;
    deviceNo = fleet[0]!.deviceNo;
    const op = body(await admin.post('/auth/access/system/orgs/create', { name: `Ставрополь Лифт ${kind}`, kind: 'operator' })).result;
    const other = body(await admin.post('/auth/access/system/orgs/create', { name: `Elsewhere PDF ${kind}`, kind: 'operator' })).result;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: [liftId] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: other.id, liftIds: [otherLiftId] });
    await t.database.sql.query(`update lifts set alias = '北门坡道升降机' where id = $1`, [liftId]);
    for (const [name, role, orgId] of [
      ['anna', 'operator', op.id],
      ['vera', 'viewer', op.id],
      ['otto', 'operator', other.id],
    ] as const) {
      const user = await userWithRole(t, adminToken, role, `${name}-pdf-${kind}`, orgId);
      u[name] = { id: user.id, username: user.username, api: client(t.app, user.token) };
    }
    const actor = { id: u.anna.id, name: u.anna.username };
    await appendLogbookNow(t.database.sql, { liftId, kind: 'credential', actor, data: { action: 'issued', deviceNo } });
    await appendLogbookNow(t.database.sql, { liftId, kind: 'lease', actor, data: { action: 'taken', epoch: 1, previousHolderId: null, previousHolderName: null } });
    await appendLogbookNow(t.database.sql, { liftId, kind: 'incident', actor, data: { incidentId: 41, cause: 'manual', title: 'Платформа застряла между этажами', from: null, to: 'open' } });
    await appendLogbookNow(t.database.sql, { liftId, kind: 'incident', actor, data: { incidentId: 42, cause: 'manual', title: '平台卡在楼层之间', from: null, to: 'open' } });
    // Long texts wrap inside their column; many entries run over several pages.
    await appendLogbookNow(t.database.sql, {
      liftId,
      kind: 'incident',
      actor,
      data: { incidentId: 41, cause: 'manual', code: null, from: 'onSite', to: 'resolved', rootCause: 'rackWear', partsUsed: ['Rack segment 1.2 m (part no. RK-1200-ZN), galvanised', 'Pinion 18T', 'Seat belt, left', '齿条固定螺栓 M12×40 八只', 'Смазка для зубчатой рейки, 400 г'] },
    });
    for (let i = 0; i < 70; i++) {
      await appendLogbookNow(t.database.sql, { liftId, kind: 'config', actor: null, data: { source: i % 2 ? 'cloud' : 'device', commandId: null, versionBefore: i, versionAfter: i + 1 } });
    }
    await appendLogbookNow(t.database.sql, { liftId, kind: 'incident', actor, data: { incidentId: 41, photo: { id: '3f1c2e4a-5b6d-4e7f-8a9b-0c1d2e3f4a5b', contentType: 'image/jpeg', size: 2_483_112, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' } } });
    await appendLogbookNow(t.database.sql, { liftId, kind: 'lease', actor, data: { action: 'released', epoch: 1, previousHolderId: null, previousHolderName: null } });
    await appendLogbookNow(t.database.sql, { liftId, kind: 'firmware', actor: null, data: { offerSeq: 2, version: 'FW-2.1.0', state: 'failed', reason: 'hashMismatch', runningVersion: 'FW-2.0.0', campaignId: null, campaignName: 'Весна', approvedBy: 'boris' } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the lift, says each entry in words in the user language, and the chain intact; audited', async () => {
    await language('anna', 'en-US');
    const res = await exportPdf(u.anna.api, { timeZone: 'Europe/Moscow' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`logbook-${deviceNo}.pdf`);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const en = text(res.rawPayload, 'en-US');
    expect(en).toContain(`Lift logbook · ${deviceNo}`);
    expect(en).toContain('北门坡道升降机');
    expect(en).toContain('Inclined straight rack lift');
    expect(en).toContain(`Ставрополь Лифт ${kind}`);
    expect(en).toContain('Платформа застряла');
    expect(en).toContain('平台卡在楼层之间');
    expect(en).toContain('Chain intact: 78 entries checked');
    expect(en).toContain(`New IoT secret issued for ${deviceNo}`);
    expect(en).toContain('Incident #41: on site → resolved');
    expect(en).toContain('Incident #41: photo added (JPEG, 2.4 MB, SHA-256 e3b0c44298fc)');
    expect(en).toContain('Europe/Moscow');
    expect(en).toContain('Firmware FW-2.1.0 not installed: The image is corrupted (SHA-256 mismatch); runs FW-2.0.0');
    expect(en).toMatch(/Page 1 of [2-9]/);
    const [audit] = await t.database.sql.query<{ detail: Record<string, unknown> }>(`select detail from audit_log where action = 'lift.exportLogbook' and lift_id = $1 order by id desc limit 1`, [liftId]);
    expect(audit!.detail).toEqual({ rows: 78, format: 'pdf' });
  });

  it('writes Russian and Chinese, and times in the zone asked for', async () => {
    await language('anna', 'ru-RU');
    const ru = text((await exportPdf(u.anna.api)).rawPayload, 'ru-RU');
    expect(ru).toContain(`Журнал лифта · ${deviceNo}`);
    expect(ru).toContain('Цепочка цела: проверено записей — 78');
    expect(ru).toContain('Наклонный подъёмник с прямой рейкой');
    expect(ru).toContain('Удалённое управление взято');
    expect(ru).toContain('кампания «Весна», согласовал boris');
    expect(ru).toContain('UTC');
    await language('anna', 'zh-CN');
    const zh = text((await exportPdf(u.anna.api, { timeZone: 'Asia/Shanghai', kinds: ['incident'] })).rawPayload, 'zh-CN');
    expect(zh).toContain(`设备日志簿 · ${deviceNo}`);
    expect(zh).toContain('链完整');
    expect(zh).toContain('事件 #42 已创建');
    expect(zh).toContain('Asia/Shanghai');
    expect(zh).not.toContain('配置版本');
    // The first entry's time in Shanghai: eight hours ahead of UTC.
    const [first] = await t.database.sql.query<{ ts: Date }>(`select ts from lift_logbook where lift_id = $1 and kind = 'incident' order by seq limit 1`, [liftId]);
    const shanghai = new Date(new Date(first!.ts).getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(zh).toContain(shanghai);
    // A zone that does not exist is a bad request.
    const bad = await exportPdf(u.anna.api, { timeZone: 'Mars/Olympus_Mons' });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
  });

  it('shows where a tampered chain breaks', async () => {
    await language('anna', 'en-US');
    await asAttacker(`update lift_logbook set data = '{"incidentId":42,"cause":"manual","title":"nothing happened","from":null,"to":"open"}' where lift_id = $1 and seq = 4`, [liftId]);
    const broken = text((await exportPdf(u.anna.api)).rawPayload, 'tampered');
    expect(broken).toContain('Chain broken at entry No. 4');
    expect(broken).toContain('The 3 entries before it are intact.');
    expect(broken).toContain('chain broken here');
    expect(broken).not.toContain('Chain intact');
  });

  it('refuses a user without lift.export and answers another organization as not found', async () => {
    const viewer = await exportPdf(u.vera.api);
    expect([viewer.statusCode, body(viewer).code]).toEqual([403, 'forbidden']);
    const far = await exportPdf(u.otto.api);
    expect([far.statusCode, body(far).code]).toEqual([404, 'lift.notFound']);
    const farOwn = await exportPdf(u.otto.api, {}, otherLiftId);
    expect(farOwn.statusCode).toBe(200);
    expect(text(farOwn.rawPayload, 'empty')).toContain('日志簿尚无条目'); // otto's language: the default, zh-CN
  });

  it('names the missing font with a clear error', async () => {
    await expect(pdfFont([{ path: '/nonexistent/font.ttc' }])).rejects.toMatchObject({ code: 'logbook.pdfFont', status: 503 });
  });
});
