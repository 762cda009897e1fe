import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveServerMessage } from '@liftlink/protocol';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/**
 * Two-person approval (docs/remote-control.md) against a simulated lift on the embedded
 * broker: a command of an approval class runs only after a second user approves it, under
 * the requester's lease, and the audit names both.
 */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A live WebSocket signed in as `token`, collecting what the server pushes. */
async function watch(url: string, token: string) {
  const socket = new WebSocket(url, { headers: { cookie: `Access-Token=${token}` } });
  const messages: LiveServerMessage[] = [];
  socket.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString()) as LiveServerMessage));
  await once(socket, 'open');
  const next = (what: string, pred: (m: LiveServerMessage) => boolean) => until(what, async () => messages.find(pred));
  return { socket, next, send: (m: object) => socket.send(JSON.stringify(m)) };
}

let keySeq = 0;
/** One click's idempotency key. */
const newKey = () => `approval-test-${Date.now()}-${++keySeq}`;
const AGING = { command: 'aging', args: { target: 'overall' } };
/** A short approval window (APPROVAL_WINDOW_MS; 10 minutes by default), long enough for every other test to decide in time. */
const WINDOW_MS = 8_000;

describe.each(DB_KINDS)('two-person approval on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let sim: ReturnType<typeof spawnSimulator>;
  let fleet: DemoLift[];
  /** The lift of most tests; the two that run a command each have one of their own, so neither finds the other's still busy. */
  let liftId: string;
  let secondLiftId: string;
  let operatorOrg: string;
  /** anna asks, boris and carl approve, vera only watches; otto's organization does not reach the lift. */
  const u = {} as Record<'anna' | 'boris' | 'carl' | 'vera' | 'otto', { id: string; username: string; token: string; api: ReturnType<typeof client> }>;
  let liveUrl: string;

  const request = (extra: Record<string, unknown> = {}) => u.anna.api.post('/auth/access/lift/approval/request', { liftId, ...AGING, reason: 'Yearly endurance check', idempotencyKey: newKey(), ...extra });
  const list = async (who = u.vera) => body((await who.api.get(`/auth/access/lift/approval/list?liftId=${liftId}`))).result.list as { id: string; state: string; [k: string]: unknown }[];
  const count = async (table: string) => Number((await t.database.sql.query<{ n: string }>(`select count(*) as n from ${table}`))[0]!.n);
  const liftStatus = async (id = liftId) => body(await admin.post('/auth/access/lift/getInfo', { liftId: id })).result.status;
  /** Ends the aging loop an approval started (a stop needs neither lease nor approval). */
  const stopAging = async (id: string) => {
    const res = await u.anna.api.post('/auth/access/lift/control', { liftId: id, command: 'pause', args: {} });
    expect(res.statusCode, res.body).toBe(200);
    await until('the aging loop stopped', async () => (await liftStatus(id))?.aging === null);
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { COMMAND_WAIT_MS: '5000', APPROVAL_WINDOW_MS: String(WINDOW_MS) });
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    fleet = await ensureDemoFleet(t.database.sql, 2);
    [liftId, secondLiftId] = [fleet[0]!.id, fleet[1]!.id];
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    liveUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/live`;
    sim = spawnSimulator(fleet, `mqtt://127.0.0.1:${t.app.mqtt.options.port}`, () => {});
    await sim.ready;
    const [org] = await t.database.sql.query<{ id: string }>(`insert into organizations (name, kind) values ('Approvals Operator', 'operator') returning id`);
    operatorOrg = org!.id;
    const [other] = await t.database.sql.query<{ id: string }>(`insert into organizations (name, kind) values ('Elsewhere', 'operator') returning id`);
    expect((await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: operatorOrg, liftIds: [liftId, secondLiftId] })).statusCode).toBe(200);
    for (const [name, role, orgId] of [['anna', 'operator', operatorOrg], ['boris', 'operator', operatorOrg], ['carl', 'operator', operatorOrg], ['vera', 'viewer', operatorOrg], ['otto', 'operator', other!.id]] as const) {
      const user = await userWithRole(t, adminToken, role, `${name}-${kind}`, orgId);
      u[name] = { id: user.id, username: user.username, token: user.token, api: client(t.app, user.token) };
    }
    for (const id of [liftId, secondLiftId]) await until('the lift online', async () => body(await admin.post('/auth/access/lift/getInfo', { liftId: id })).result.lift.online);
  }, 90_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    await t?.close();
  });

  it('refuses an aging command sent directly: it needs approval, and nothing reaches the lift', async () => {
    const before = await count('lift_commands');
    const res = await u.anna.api.post('/auth/access/lift/control', { liftId, ...AGING });
    expect([res.statusCode, body(res).code]).toEqual([409, 'approval.required']);
    expect(await count('lift_commands')).toBe(before);
  });

  it('a request with a reason is pending in the list, told live and audited; the same click again answers the same request', async () => {
    // Someone watching the lift's page sees the request come and go.
    const live = await watch(liveUrl, u.vera.token);
    live.send({ type: 'subscribe', liftIds: [liftId] });
    await live.next('subscribed', (m) => m.type === 'subscribed');
    const key = newKey();
    const first = await request({ idempotencyKey: key });
    expect(first.statusCode, first.body).toBe(200);
    const made = body(first).result;
    expect(made).toMatchObject({ liftId, command: 'aging', args: { target: 'overall' }, commandClass: 'aging', reason: 'Yearly endurance check', state: 'pending', requesterId: u.anna.id, requesterName: u.anna.username, deciderId: null, commandId: null });
    expect(Date.parse(made.expiresAt) - Date.parse(made.requestedAt)).toBe(WINDOW_MS);
    const again = await request({ idempotencyKey: key, reason: 'Pressed twice' });
    expect(body(again).result.id).toBe(made.id);
    expect((await list()).filter((a) => a.id === made.id)).toEqual([expect.objectContaining({ state: 'pending', reason: 'Yearly endurance check' })]);
    await live.next('the request, live', (m) => m.type === 'approval' && m.approval.id === made.id && m.approval.state === 'pending');
    const audit = await t.database.sql.query<{ username: string; result: string; detail: Record<string, unknown> }>(`select username, result, detail from audit_log where action = 'lift.approvalRequest' and detail->>'approvalId' = $1`, [made.id]);
    expect(audit).toEqual([{ username: u.anna.username, result: 'ok', detail: { name: 'aging', args: { target: 'overall' }, approvalId: made.id, justification: 'Yearly endurance check' } }]);
    // The requester holds the lift's lease: the approved command will run under it.
    const [lease] = await t.database.sql.query<{ holder_id: string }>(`select holder_id from lift_leases where lift_id = $1 and expires_at > now()`, [liftId]);
    expect(lease?.holder_id).toBe(u.anna.id);
    await u.anna.api.post('/auth/access/lift/approval/withdraw', { approvalId: made.id });
    await live.next('the withdrawal, live', (m) => m.type === 'approval' && m.approval.id === made.id && m.approval.state === 'withdrawn');
    live.socket.close();
  });

  it('the requester cannot approve their own request', async () => {
    const made = body(await request()).result;
    const res = await u.anna.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
    expect([res.statusCode, body(res).code]).toEqual([403, 'approval.ownRequest']);
    expect((await list()).find((a) => a.id === made.id)?.state).toBe('pending');
  });

  it("a second user approves: the lift runs the command under the requester's lease, and the audit names requester and approver", async () => {
    const made = body(await request()).result;
    const res = await u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
    expect(res.statusCode, res.body).toBe(200);
    const result = body(res).result;
    expect(['accepted', 'done']).toContain(result.state);
    try {
      // The lift's own status shows the loop the command started.
      expect((await until('the aging loop', async () => (await liftStatus())?.aging)).target).toBe('overall');
      const shown = (await list()).find((a) => a.id === made.id)!;
      expect(shown).toMatchObject({ state: 'approved', deciderId: u.boris.id, deciderName: u.boris.username, commandId: result.commandId });
      expect(['accepted', 'done']).toContain(shown.commandState);
      const [command] = await t.database.sql.query<{ username: string; approval_id: string }>(`select username, approval_id from lift_commands where id = $1`, [result.commandId]);
      expect(command).toEqual({ username: u.anna.username, approval_id: made.id });
      const [entry] = await t.database.sql.query<{ username: string; detail: Record<string, unknown> }>(`select username, detail from audit_log where action = 'lift.command' and detail->'approval'->>'id' = $1`, [made.id]);
      expect(entry!.detail.approval).toEqual({ id: made.id, requester: u.anna.username, approver: u.boris.username });
      const [decision] = await t.database.sql.query<{ username: string; result: string; detail: Record<string, unknown> }>(`select username, result, detail from audit_log where action = 'lift.approvalDecision' and detail->>'approvalId' = $1`, [made.id]);
      expect(decision).toMatchObject({ username: u.boris.username, result: 'ok', detail: { decision: 'approved', requester: u.anna.username, name: 'aging' } });
      // Decided once: approving again changes nothing and sends nothing.
      const again = await u.carl.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
      expect([again.statusCode, body(again).code]).toEqual([409, 'approval.closed']);
      expect(await t.database.sql.query(`select id from lift_commands where approval_id = $1`, [made.id])).toHaveLength(1);
    } finally {
      await stopAging(liftId);
    }
  }, 60_000);

  it('an approval while the requester no longer controls the lift is refused with lease.lost and stays pending', async () => {
    const made = body(await request()).result;
    // The requester's page closed: the lease runs out.
    await t.database.sql.query(`update lift_leases set expires_at = now() - interval '1 second' where lift_id = $1`, [liftId]);
    const res = await u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
    expect([res.statusCode, body(res).code]).toEqual([409, 'lease.lost']);
    expect((await list()).find((a) => a.id === made.id)?.state).toBe('pending');
    expect(await t.database.sql.query(`select id from lift_commands where approval_id = $1`, [made.id])).toEqual([]);
  });

  it('an approval while the lift is offline is refused with lift.offline and stays pending', async () => {
    const made = body(await request()).result;
    // The lift's connection drops (as ingest marks it when the broker says so), and comes back after.
    await t.database.sql.query(`update lifts set online = false where id = $1`, [liftId]);
    try {
      const res = await u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
      expect([res.statusCode, body(res).code, body(res).result.reason]).toEqual([503, 'lift.offline', 'offline']);
    } finally {
      await t.database.sql.query(`update lifts set online = true where id = $1`, [liftId]);
    }
    expect((await list()).find((a) => a.id === made.id)?.state).toBe('pending');
    expect(await t.database.sql.query(`select id from lift_commands where approval_id = $1`, [made.id])).toEqual([]);
  });

  it('two approvers at once run one command', async () => {
    const made = body(await request({ liftId: secondLiftId })).result;
    const [a, b] = await Promise.all([
      u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: made.id }),
      u.carl.api.post('/auth/access/lift/approval/approve', { approvalId: made.id }),
    ]);
    try {
      expect([a.statusCode, b.statusCode].sort(), a.body + b.body).toEqual([200, 409]);
      expect(body(a.statusCode === 409 ? a : b).code).toBe('approval.closed');
      expect(await t.database.sql.query(`select id from lift_commands where approval_id = $1`, [made.id])).toHaveLength(1);
      await until('the aging loop', async () => (await liftStatus(secondLiftId))?.aging);
      const decisions = await t.database.sql.query<{ result: string }>(`select result from audit_log where action = 'lift.approvalDecision' and detail->>'approvalId' = $1 order by result`, [made.id]);
      expect(decisions.map((d) => d.result)).toEqual(['failed', 'ok']);
    } finally {
      await stopAging(secondLiftId);
    }
  }, 60_000);

  it('another user rejects, only the requester withdraws; a closed request cannot be approved and nothing runs', async () => {
    const rejected = body(await request()).result;
    const own = await u.anna.api.post('/auth/access/lift/approval/reject', { approvalId: rejected.id });
    expect([own.statusCode, body(own).code]).toEqual([403, 'approval.ownRequest']);
    const rejection = await u.boris.api.post('/auth/access/lift/approval/reject', { approvalId: rejected.id });
    expect(rejection.statusCode, rejection.body).toBe(200);
    expect(body(rejection).result).toMatchObject({ state: 'rejected', deciderName: u.boris.username });
    const late = await u.carl.api.post('/auth/access/lift/approval/approve', { approvalId: rejected.id });
    expect([late.statusCode, body(late).code]).toEqual([409, 'approval.closed']);

    const withdrawn = body(await request()).result;
    const notTheirs = await u.boris.api.post('/auth/access/lift/approval/withdraw', { approvalId: withdrawn.id });
    expect([notTheirs.statusCode, body(notTheirs).code]).toEqual([403, 'forbidden']);
    const withdrawal = await u.anna.api.post('/auth/access/lift/approval/withdraw', { approvalId: withdrawn.id });
    expect(body(withdrawal).result).toMatchObject({ state: 'withdrawn', deciderName: u.anna.username });
    const afterwards = await u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: withdrawn.id });
    expect([afterwards.statusCode, body(afterwards).code]).toEqual([409, 'approval.closed']);

    const shown = await list();
    expect(shown.find((a) => a.id === rejected.id)?.state).toBe('rejected');
    expect(shown.find((a) => a.id === withdrawn.id)?.state).toBe('withdrawn');
    expect(await t.database.sql.query(`select id from lift_commands where approval_id in ($1, $2)`, [rejected.id, withdrawn.id])).toEqual([]);
    const decisions = await t.database.sql.query<{ detail: { decision?: string } }>(`select detail from audit_log where action = 'lift.approvalDecision' and result = 'ok' and detail->>'approvalId' in ($1, $2)`, [rejected.id, withdrawn.id]);
    expect(decisions.map((d) => d.detail.decision).sort()).toEqual(['rejected', 'withdrawn']);
  });

  it('a request left past its window is expired: listed so, and it can no longer be approved', { timeout: 30_000 }, async () => {
    const made = body(await request()).result;
    await until('the window to pass', async () => Date.now() > Date.parse(made.expiresAt) + 100, WINDOW_MS + 5_000);
    const approve = await u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
    expect([approve.statusCode, body(approve).code]).toEqual([409, 'approval.closed']);
    expect(body(approve).result.approval.state).toBe('expired');
    expect((await list()).find((a) => a.id === made.id)).toMatchObject({ state: 'expired', deciderId: null });
    expect((await t.database.sql.query(`select state from command_approvals where id = $1`, [made.id]))[0]).toEqual({ state: 'expired' });
    const withdraw = await u.anna.api.post('/auth/access/lift/approval/withdraw', { approvalId: made.id });
    expect([withdraw.statusCode, body(withdraw).code]).toEqual([409, 'approval.closed']);
    expect(await t.database.sql.query(`select id from lift_commands where approval_id = $1`, [made.id])).toEqual([]);
  });

  it('refuses bad input with validation.failed and creates nothing; a command needing no approval is refused too', async () => {
    const before = await count('command_approvals');
    for (const bad of [{ reason: '' }, { reason: 'x'.repeat(301) }, { command: 'fly' }, { command: 'aging', args: { target: 'moon' } }, { idempotencyKey: 'short' }, { liftId: 'not-a-uuid' }]) {
      const res = await request(bad);
      expect([res.statusCode, body(res).code], JSON.stringify(bad)).toEqual([400, 'validation.failed']);
    }
    const tooHigh = await request({ command: 'summon', args: { floor: 9 } });
    expect([tooHigh.statusCode, body(tooHigh).code]).toEqual([400, 'validation.failed']);
    // Movement is not under approval by default: it is sent directly (`control`).
    const needless = await request({ command: 'summon', args: { floor: 2 } });
    expect([needless.statusCode, body(needless).code, body(needless).result.commandClass]).toEqual([409, 'conflict', 'movement']);
    for (const bad of [{}, { approvalId: 'nope' }]) {
      const res = await u.boris.api.post('/auth/access/lift/approval/approve', bad);
      expect([res.statusCode, body(res).code]).toEqual([400, 'validation.failed']);
    }
    const missing = await u.boris.api.post('/auth/access/lift/approval/approve', { approvalId: '00000000-0000-4000-8000-000000000000' });
    expect([missing.statusCode, body(missing).code]).toEqual([404, 'approval.notFound']);
    expect(await count('command_approvals')).toBe(before);
  });

  it('answers lift.notFound to a user whose scope does not reach the lift, and a viewer may only watch', async () => {
    const made = body(await request()).result;
    const outside = u.otto.api;
    for (const res of [
      await outside.post('/auth/access/lift/approval/request', { liftId, ...AGING, reason: 'Not mine', idempotencyKey: newKey() }),
      await outside.get(`/auth/access/lift/approval/list?liftId=${liftId}`),
      await outside.post('/auth/access/lift/approval/approve', { approvalId: made.id }),
      await outside.post('/auth/access/lift/approval/reject', { approvalId: made.id }),
      await outside.post('/auth/access/lift/approval/withdraw', { approvalId: made.id }),
    ]) {
      expect([res.statusCode, body(res).code]).toEqual([404, 'lift.notFound']);
    }
    const watching = await u.vera.api.post('/auth/access/lift/approval/approve', { approvalId: made.id });
    expect([watching.statusCode, body(watching).code]).toEqual([403, 'forbidden']);
    expect((await list()).find((a) => a.id === made.id)?.state).toBe('pending');
  });

  it("an organization chooses its approval classes: what it chooses decides its lifts' commands", async () => {
    const url = `/auth/access/system/orgs/approval-classes`;
    expect(body(await admin.get(`${url}?orgId=${operatorOrg}`)).result).toEqual({ orgId: operatorOrg, approvalClasses: ['aging', 'deformation', 'selfLearning'] });
    const refused = await u.anna.api.post(`${url}/update`, { orgId: operatorOrg, approvalClasses: [] });
    expect([refused.statusCode, body(refused).code]).toEqual([403, 'forbidden']);
    const notApprovable = await admin.post(`${url}/update`, { orgId: operatorOrg, approvalClasses: ['stop'] });
    expect([notApprovable.statusCode, body(notApprovable).code]).toEqual([400, 'validation.failed']);
    try {
      const changed = await admin.post(`${url}/update`, { orgId: operatorOrg, approvalClasses: ['movement', 'aging', 'movement'] });
      expect(body(changed).result).toEqual({ orgId: operatorOrg, approvalClasses: ['movement', 'aging'] });
      // The lift page learns them with the lift, before any click.
      expect(body(await u.anna.api.post('/auth/access/lift/getInfo', { liftId })).result.approvalClasses).toEqual(['movement', 'aging']);
      // A summon now needs a second person, and may be asked for.
      const direct = await u.anna.api.post('/auth/access/lift/control', { liftId, command: 'summon', args: { floor: 1 } });
      expect([direct.statusCode, body(direct).code]).toEqual([409, 'approval.required']);
      const asked = await request({ command: 'summon', args: { floor: 1 } });
      expect(body(asked).result).toMatchObject({ commandClass: 'movement', state: 'pending' });
      const [entry] = await t.database.sql.query<{ detail: Record<string, unknown> }>(`select detail from audit_log where action = 'org.update' and target_id = $1 order by id desc limit 1`, [operatorOrg]);
      expect(entry!.detail).toMatchObject({ before: { approvalClasses: ['aging', 'deformation', 'selfLearning'] }, after: { approvalClasses: ['movement', 'aging'] } });
    } finally {
      await admin.post(`${url}/update`, { orgId: operatorOrg, approvalClasses: ['aging', 'deformation', 'selfLearning'] });
    }
    const missing = await admin.get(`${url}?orgId=00000000-0000-4000-8000-000000000000`);
    expect([missing.statusCode, body(missing).code]).toEqual([404, 'org.notFound']);
  });
});
