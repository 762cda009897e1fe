import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAMPAIGN_PLAN, liftUpdateOutlook, type CampaignPlan, type FirmwareCampaign, type FirmwareCampaignLift, type FirmwarePackage, type LiftFirmwareUpdate } from '@liftlink/protocol';
import { CAMPAIGN_JOB } from '../src/modules/firmware/campaigns.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { FirmwareLifts } from './support/firmware-lifts.ts';
import { readyPackage } from './support/firmware-packages.ts';
import { until } from './support/ports.ts';

/**
 * Firmware campaigns (docs/firmware.md, "Campaigns") with simulated lifts on the embedded
 * broker downloading from this server: selection, two-person start, the canary stage before
 * the waves, the failure threshold that pauses a campaign by itself, resume and cancel,
 * installation windows in the organization's time zone, and who may see and do what.
 */
describe.each(DB_KINDS)('firmware campaigns on %s', (kind) => {
  let t: TestApp;
  let lifts: FirmwareLifts;
  let author: ReturnType<typeof client>;
  let approver: ReturnType<typeof client>;
  let authorId: string;
  let operatorUser: ReturnType<typeof client>;
  let otherMaker: ReturnType<typeof client>;
  let makerToken: string;
  let operatorOrgId: string;
  let versionNo = 0;

  const plan = (p: Partial<CampaignPlan>): CampaignPlan => ({ ...DEFAULT_CAMPAIGN_PLAN, wavePauseMinutes: 0, window: null, ...p });
  const newPackage = () => readyPackage(t, makerToken, `FW-5.${++versionNo}.0`, randomBytes(150_000));
  const get = async (id: string) => body<FirmwareCampaign>(await author.get(`/auth/access/firmware/campaigns/get?id=${id}`)).result;
  const liftsOf = async (id: string) => body<{ list: FirmwareCampaignLift[] }>(await author.get(`/auth/access/firmware/campaigns/lifts?id=${id}`)).result.list;
  const act = (who: ReturnType<typeof client>, action: string, id: string) => who.post(`/auth/access/firmware/campaigns/${action}`, { id });
  const firmwareOf = async (liftId: string) => (await t.database.sql.query<{ firmware: string }>(`select firmware from lifts where id = $1`, [liftId]))[0]!.firmware;

  async function create(pkg: FirmwarePackage, liftIds: string[], p: Partial<CampaignPlan>, name = `Campaign ${versionNo}`): Promise<FirmwareCampaign> {
    const res = await author.post('/auth/access/firmware/campaigns/create', { name, packageId: pkg.id, selection: { liftIds }, plan: plan(p) });
    expect(res.statusCode, res.body).toBe(200);
    return body<FirmwareCampaign>(res).result;
  }

  async function approved(c: FirmwareCampaign): Promise<FirmwareCampaign> {
    const res = await act(approver, 'approve', c.id);
    expect(res.statusCode, res.body).toBe(200);
    return body<FirmwareCampaign>(res).result;
  }

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_MAX: '100000', FIRMWARE_CAMPAIGN_POLL_MS: '150' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const admin = client(t.app, adminToken);
    const [maker] = await t.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
    const a = await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, maker!.id);
    makerToken = a.token;
    authorId = a.id;
    author = client(t.app, a.token);
    approver = client(t.app, (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, maker!.id)).token);
    operatorOrgId = body<{ id: string }>(await admin.post('/auth/access/system/orgs/create', { name: `Campaign operator ${kind}`, kind: 'operator', timeZone: 'Asia/Shanghai' })).result.id;
    operatorUser = client(t.app, (await userWithRole(t, adminToken, 'operator', undefined, operatorOrgId)).token);
    const rival = body<{ id: string }>(await admin.post('/auth/access/system/orgs/create', { name: `Rival maker ${kind}`, kind: 'manufacturer' })).result.id;
    otherMaker = client(t.app, (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, rival)).token);
    const key = await author.get('/manufacture/firmware/signing-key');
    expect(key.statusCode, key.body).toBe(200);
    lifts = new FirmwareLifts(t, `FWC-${kind.toUpperCase()}`, base, body<{ publicKey: string }>(key).result.publicKey);
  }, 120_000);
  afterAll(async () => {
    await lifts?.stop();
    await t?.close();
  });

  it('previews and creates a campaign of the lifts selected; its author cannot approve it, a second person can', async () => {
    const pkg = await newPackage();
    const selected = [await lifts.provision(), await lifts.provision(), await lifts.provision()];
    const input = { name: 'Spring', packageId: pkg.id, selection: { liftIds: selected.map((l) => l.liftId) }, plan: plan({ canaryCount: 1, waveSize: 1 }) };
    const preview = await author.post('/auth/access/firmware/campaigns/preview', input);
    expect(body(preview).result).toEqual({ liftCount: 3, stageSizes: [1, 1, 1], sample: selected.map((l) => l.deviceNo) });
    // Lifts of another version than asked for are left out.
    const none = await author.post('/auth/access/firmware/campaigns/create', { ...input, selection: { ...input.selection, fromVersions: ['FW-0.9.0'] } });
    expect([none.statusCode, body(none).code]).toEqual([409, 'campaign.noLifts']);
    const created = await author.post('/auth/access/firmware/campaigns/create', input);
    expect(created.statusCode, created.body).toBe(200);
    const c = body<FirmwareCampaign>(created).result;
    expect(c).toMatchObject({ state: 'awaitingApproval', packageVersion: pkg.version, approvedBy: null, createdBy: { id: authorId } });
    expect(c.stages.map((s) => [s.stage, s.size, s.waiting])).toEqual([[0, 1, 1], [1, 1, 1], [2, 1, 1]]);
    // The same lifts are not taken into a second open campaign.
    const again = await author.post('/auth/access/firmware/campaigns/preview', input);
    expect(body(again).result.liftCount).toBe(0);

    const own = await act(author, 'approve', c.id);
    expect([own.statusCode, body(own).code]).toEqual([403, 'campaign.ownApproval']);
    expect((await get(c.id)).state).toBe('awaitingApproval');
    // Nothing is offered before the approval.
    await t.app.jobs.run(CAMPAIGN_JOB);
    expect((await liftsOf(c.id)).map((l) => l.state)).toEqual(['waiting', 'waiting', 'waiting']);

    const cancelled = await act(approver, 'cancel', c.id);
    expect(body<FirmwareCampaign>(cancelled).result).toMatchObject({ state: 'cancelled' });
    expect((await liftsOf(c.id)).map((l) => l.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const late = await act(approver, 'approve', c.id);
    expect([late.statusCode, body(late).code]).toEqual([409, 'campaign.state']);
    const [audit] = await t.database.sql.query<{ n: string }>(`select count(*)::text as n from audit_log where target_id = $1 and action in ('firmware.campaignCreate', 'firmware.campaignCancel')`, [c.id]);
    expect(audit!.n).toBe('2');
  });

  it('rolls out the canary stage first, then each wave after the one before ended; a failed lift keeps its version', async () => {
    const pkg = await newPackage();
    const canary = await lifts.connect();
    const good = await lifts.connect();
    const corrupt = await lifts.connect({ ota: { corruptImage: true } });
    const last = await lifts.connect();
    const c = await approved(await create(pkg, [canary, good, corrupt, last].map((l) => l.liftId), { canaryCount: 1, waveSize: 2, failureThresholdPercent: 50 }));
    expect(c).toMatchObject({ state: 'running', approvedBy: { name: expect.any(String) } });
    const done = await until('the campaign done', async () => {
      const now = await get(c.id);
      return now.state === 'done' ? now : null;
    }, 60_000);
    expect(done.stages.map((s) => [s.size, s.done, s.failed])).toEqual([[1, 1, 0], [2, 1, 1], [1, 1, 0]]);
    expect(done.failurePercent).toBe(25);
    const rows = await liftsOf(c.id);
    expect(rows.map((r) => [r.deviceNo, r.stage, r.state])).toEqual([
      [canary.deviceNo, 0, 'done'],
      [good.deviceNo, 1, 'done'],
      [corrupt.deviceNo, 1, 'failed'],
      [last.deviceNo, 2, 'done'],
    ]);
    expect(rows[2]).toMatchObject({ reason: 'hashMismatch', runningVersion: 'FW-1.0.0' });
    // Each stage was offered only when the one before had ended.
    const times = await t.database.sql.query<{ stage: number; offered: Date; ended: Date }>(
      `select cl.stage, cl.offered_at as offered, u.updated_at as ended from firmware_campaign_lifts cl
         join lift_firmware_updates u on u.lift_id = cl.lift_id and u.offer_seq = cl.offer_seq where cl.campaign_id = $1`,
      [c.id],
    );
    const at = (stage: number, what: 'offered' | 'ended', pick: (...n: number[]) => number) => pick(...times.filter((r) => r.stage === stage).map((r) => new Date(r[what]).getTime()));
    expect(at(1, 'offered', Math.min)).toBeGreaterThanOrEqual(at(0, 'ended', Math.max));
    expect(at(2, 'offered', Math.min)).toBeGreaterThanOrEqual(at(1, 'ended', Math.max));
    expect(await firmwareOf(canary.liftId)).toBe(pkg.version);
    expect(await firmwareOf(last.liftId)).toBe(pkg.version);
    expect(await firmwareOf(corrupt.liftId)).toBe('FW-1.0.0');
    // Each lift's logbook has one entry of how its update ended, with the campaign and its approver, in an intact chain.
    const logbookOf = (liftId: string) => t.database.sql.query<{ data: Record<string, unknown> }>(`select data from lift_logbook where lift_id = $1 and kind = 'firmware'`, [liftId]);
    expect((await logbookOf(canary.liftId)).map((e) => e.data)).toEqual([
      { offerSeq: expect.any(Number), version: pkg.version, state: 'done', reason: null, runningVersion: pkg.version, campaignId: c.id, campaignName: c.name, approvedBy: c.approvedBy!.name },
    ]);
    expect((await logbookOf(corrupt.liftId)).map((e) => [e.data.state, e.data.reason, e.data.runningVersion])).toEqual([['failed', 'hashMismatch', 'FW-1.0.0']]);
    const verified = await author.post('/auth/access/lift/logbook/verify', { liftId: corrupt.liftId });
    expect(body(verified).result, verified.body).toMatchObject({ ok: true });
    // The offers carried the campaign.
    const offers = await t.database.sql.query(`select 1 from lift_firmware_updates where campaign_id = $1`, [c.id]);
    expect(offers).toHaveLength(4);
  });

  it('pauses itself when failures pass the threshold, offers nothing more until resumed, and cancel leaves the rest unoffered', async () => {
    const pkg = await newPackage();
    const bad = await lifts.connect({ ota: { corruptImage: true } });
    const next = await lifts.connect();
    const third = await lifts.connect();
    const c = await approved(await create(pkg, [bad, next, third].map((l) => l.liftId), { canaryCount: 1, waveSize: 1, failureThresholdPercent: 0, wavePauseMinutes: 60 }));
    const paused = await until('the campaign paused', async () => {
      const now = await get(c.id);
      return now.state === 'paused' ? now : null;
    }, 60_000);
    expect(paused).toMatchObject({ pauseReason: 'failureThreshold', failurePercent: 100 });
    await t.app.jobs.run(CAMPAIGN_JOB);
    expect((await liftsOf(c.id)).map((l) => l.state)).toEqual(['failed', 'waiting', 'waiting']);
    const [auto] = await t.database.sql.query<{ user_id: string | null; detail: { reason: string } }>(
      `select user_id, detail from audit_log where target_id = $1 and action = 'firmware.campaignPause'`,
      [c.id],
    );
    expect(auto).toMatchObject({ user_id: null, detail: { reason: 'failureThreshold' } });

    // Resumed, the failure seen before no longer counts; the next wave waits the pause between stages.
    expect((await act(author, 'resume', c.id)).statusCode).toBe(200);
    const stageAt = async () => (await t.database.sql.query<{ at: Date | null }>(`select next_stage_at as at from firmware_campaigns where id = $1`, [c.id]))[0]!.at;
    const pauseEnds = await until('the pause before the next wave', stageAt, 10_000);
    expect(new Date(pauseEnds).getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    await t.app.jobs.run(CAMPAIGN_JOB);
    expect((await liftsOf(c.id)).map((l) => l.state)).toEqual(['failed', 'waiting', 'waiting']);
    // An hour later (the clock moved on): the wave goes.
    await t.database.sql.query(`update firmware_campaigns set next_stage_at = now() - interval '1 second' where id = $1`, [c.id]);
    await until('the second lift done', async () => (await liftsOf(c.id))[1]!.state === 'done', 60_000);
    const cancel = await act(approver, 'cancel', c.id);
    expect(body<FirmwareCampaign>(cancel).result).toMatchObject({ state: 'cancelled' });
    expect((await liftsOf(c.id)).map((l) => l.state)).toEqual(['failed', 'done', 'cancelled']);
    expect(await firmwareOf(third.liftId)).toBe('FW-1.0.0');
  });

  it("offers the package for the next window in the operator's time zone: outside it the lift waits", async () => {
    const pkg = await newPackage();
    const l = await lifts.connect({ operatorOrgId });
    // A window that begins in three hours' time in Shanghai.
    const shanghaiHour = (new Date().getUTCHours() + 8) % 24;
    const window = { startHour: (shanghaiHour + 3) % 24, endHour: (shanghaiHour + 5) % 24 };
    const c = await approved(await create(pkg, [l.liftId], { window }));
    const waiting = await until('the lift deferred', async () => {
      const [row] = await liftsOf(c.id);
      return row?.state === 'deferred' ? row : null;
    }, 60_000);
    expect(waiting.reason).toBe('outsideWindow');
    const [offer] = await t.database.sql.query<{ offered_at: Date }>(`select offered_at from firmware_campaign_lifts where campaign_id = $1`, [c.id]);
    // It retries at the window's start, which is local 3 hours from now (to the hour).
    const retryAt = new Date(waiting.retryAt!).getTime();
    const startOfHour = new Date(offer!.offered_at);
    startOfHour.setUTCMinutes(0, 0, 0);
    expect(retryAt).toBeGreaterThanOrEqual(startOfHour.getTime() + 3 * 3_600_000);
    expect(retryAt).toBeLessThanOrEqual(startOfHour.getTime() + 4 * 3_600_000);
    expect((await get(c.id)).state).toBe('running');
    expect(await firmwareOf(l.liftId)).toBe('FW-1.0.0');
    await act(author, 'cancel', c.id);
  });

  it('shows campaigns only to their organization and lets only those with firmware rights act', async () => {
    const pkg = await newPackage();
    const c = await create(pkg, [(await lifts.provision()).liftId], {});
    const foreign = await otherMaker.get(`/auth/access/firmware/campaigns/get?id=${c.id}`);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'campaign.notFound']);
    expect(body<{ list: FirmwareCampaign[] }>(await otherMaker.get('/auth/access/firmware/campaigns')).result.list).toEqual([]);
    expect((await act(otherMaker, 'approve', c.id)).statusCode).toBe(404);
    const operator = await operatorUser.get('/auth/access/firmware/campaigns');
    expect(operator.statusCode).toBe(403);
    // Bad input: a clear error, nothing created.
    const before = (await t.database.sql.query(`select id from firmware_campaigns`)).length;
    const bad = await author.post('/auth/access/firmware/campaigns/create', { name: '', packageId: pkg.id, selection: {}, plan: { ...plan({}), waveSize: 0 } });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
    expect((await t.database.sql.query(`select id from firmware_campaigns`)).length).toBe(before);
    await act(author, 'cancel', c.id);
  });

  it('tells the operator of a lift what a campaign will do to it and when, and nothing of the lifts it does not operate', async () => {
    const pkg = await newPackage();
    const first = await lifts.connect({ operatorOrgId });
    const second = await lifts.provision(operatorOrgId);
    const notMine = await lifts.provision();
    // A window that begins in three hours' time in Shanghai, the operator's time zone.
    const shanghaiHour = (new Date().getUTCHours() + 8) % 24;
    const window = { startHour: (shanghaiHour + 3) % 24, endHour: (shanghaiHour + 5) % 24 };
    const c = await create(pkg, [first, second, notMine].map((l) => l.liftId), { canaryCount: 1, waveSize: 1, window }, 'Gentler stop');
    const updates = async (who = operatorUser, query = '') => {
      const res = await who.get(`/auth/access/lift/firmware-updates${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return body<{ list: LiftFirmwareUpdate[] }>(res).result.list.filter((u) => u.campaignId === c.id);
    };

    // Planned, before anyone approved it: the operator sees both of its lifts, the version, the window in its own hours.
    const planned = await updates();
    expect(planned.map((u) => [u.deviceNo, u.stage, liftUpdateOutlook(u)])).toEqual([
      [first.deviceNo, 0, 'awaitingApproval'],
      [second.deviceNo, 1, 'awaitingApproval'],
    ]);
    expect(planned[0]).toMatchObject({ version: pkg.version, runningVersion: 'FW-1.0.0', campaignName: 'Gentler stop', stageCount: 3, timeZone: 'Asia/Shanghai', window, offeredAt: null });
    expect(planned[0]!.makerOrgName).toEqual(expect.any(String));
    // The window's next opening is three hours from now, to the hour, in any case within the next 4 hours.
    const opens = new Date(planned[0]!.nextWindow!.start).getTime();
    expect(opens - Date.now()).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(opens - Date.now()).toBeLessThanOrEqual(3 * 3_600_000);
    expect(new Date(planned[0]!.nextWindow!.end).getTime() - opens).toBe(2 * 3_600_000);

    // Approved: the canary lift is offered and waits for its window, saying so; the next waits for its stage.
    await approved(c);
    const deferred = await until('the canary lift deferred', async () => {
      const [u] = await updates();
      return u?.state === 'deferred' ? u : null;
    }, 60_000);
    expect(deferred).toMatchObject({ deviceNo: first.deviceNo, reason: 'outsideWindow', campaignState: 'running' });
    expect(liftUpdateOutlook(deferred)).toBe('inProgress');
    expect(deferred.offeredAt).not.toBeNull();
    expect(deferred.stageStartsAt).toBe(deferred.offeredAt);
    expect(new Date(deferred.retryAt!).getTime()).toBeGreaterThanOrEqual(opens - 60_000);
    const [, next] = await updates();
    expect([next!.deviceNo, liftUpdateOutlook(next!), next!.currentStage, next!.stageStartsAt]).toEqual([second.deviceNo, 'scheduled', 0, null]);

    // One lift: its own updates; a lift the operator does not operate is not found; bad input is refused.
    expect((await updates(operatorUser, `?liftId=${second.liftId}`)).map((u) => u.deviceNo)).toEqual([second.deviceNo]);
    const foreign = await operatorUser.get(`/auth/access/lift/firmware-updates?liftId=${notMine.liftId}`);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'lift.notFound']);
    const bad = await operatorUser.get('/auth/access/lift/firmware-updates?liftId=DEMO-0001');
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
    // The maker's engineers see all three; another maker sees none.
    expect((await updates(author)).map((u) => u.deviceNo).sort()).toEqual([first.deviceNo, second.deviceNo, notMine.deviceNo]);
    expect(await updates(otherMaker)).toEqual([]);

    // Cancelled: the lift not offered yet is told so; the one offered may still finish, and stays open.
    await act(author, 'cancel', c.id);
    const after = await updates();
    expect(after.map((u) => [u.deviceNo, liftUpdateOutlook(u)])).toEqual([
      [first.deviceNo, 'inProgress'],
      [second.deviceNo, 'cancelled'],
    ]);
    expect(after[1]!.nextWindow).toBeNull();
  });

  it('ends the open campaigns of a package that is withdrawn: the lifts not offered yet are cancelled, and the audit says why', async () => {
    const pkg = await newPackage();
    const running = await approved(await create(pkg, [(await lifts.provision()).liftId, (await lifts.provision()).liftId], { canaryCount: 1, waveSize: 1 }, 'Running when withdrawn'));
    await until('the canary offered', async () => ((await liftsOf(running.id))[0]?.state === 'offered' ? true : null), 30_000);
    const withdrawn = await author.post('/auth/access/firmware/packages/withdraw', { id: pkg.id });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await get(running.id)).toMatchObject({ state: 'cancelled', packageState: 'withdrawn', endedAt: expect.any(String) });
    expect((await liftsOf(running.id)).map((l) => l.state)).toEqual(['offered', 'cancelled']);
    const [audit] = await t.database.sql.query<{ detail: Record<string, unknown> }>(
      `select detail from audit_log where target_id = $1 and action = 'firmware.campaignCancel'`,
      [running.id],
    );
    expect(audit!.detail).toMatchObject({ reason: 'packageWithdrawn', notOffered: 1 });
    // Nothing more is offered for it.
    await t.app.jobs.run(CAMPAIGN_JOB);
    expect((await liftsOf(running.id)).map((l) => l.state)).toEqual(['offered', 'cancelled']);
  });
});
