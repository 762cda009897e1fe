import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogbookEntry } from '@liftlink/protocol';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { appendLogbookNow } from '../src/modules/logbook/index.ts';
import { entryHash, GENESIS_HASH } from '../src/modules/logbook/hash.ts';
import { cleanup } from '../src/modules/jobs/cleanup.ts';
import { recordRetention } from '../src/modules/jobs/retention.ts';
import {
  ADMIN_PASSWORD,
  DB_KINDS,
  body,
  client,
  login,
  startTestApp,
  userWithRole,
  type TestApp,
} from './helpers.ts';

/**
 * The lift's logbook (docs/logbook.md) with simulated lifts on the embedded broker: what the
 * lease, commands, configuration, approvals and credentials write into it, the hash chain that
 * finds a changed or removed entry, its scope and permissions, and the CSV an auditor checks.
 */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The export's rows by column name: a plain header line, then every cell quoted (lib/csv.ts); canonical JSON has no raw line breaks. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.replace(/^\uFEFF/, '').split('\r\n');
  const columns = header!.split(',');
  return lines.map((line) => {
    const cells = [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"'));
    return Object.fromEntries(columns.map((c, i) => [c, cells[i]!]));
  });
}

let keys = 0;
const newKey = () =>
  `logbook-${Date.now().toString(36)}-${++keys}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(DB_KINDS)('the lift logbook on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let adminId: string;
  let fleet: DemoLift[];
  let sim: ReturnType<typeof spawnSimulator>;
  /** anna operates the lifts, boris decides her approvals, vera only watches; otto's organization does not reach them. */
  const u = {} as Record<
    'anna' | 'boris' | 'vera' | 'otto',
    { id: string; username: string; api: ReturnType<typeof client> }
  >;
  /** The simulated lift the feeds write to; the tamper tests use a lift of their own. */
  let liftId: string;
  let tamperLiftId: string;
  let spareLiftId: string;

  const page = async (
    who: ReturnType<typeof client>,
    extra: Record<string, unknown> = {},
    id = liftId,
  ) => {
    const res = await who.post('/auth/access/lift/logbook/page', {
      liftId: id,
      pageSize: 200,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ list: LogbookEntry[]; total: number }>(res).result;
  };
  const verify = async (id: string, who = u.vera.api) => {
    const res = await who.post('/auth/access/lift/logbook/verify', { liftId: id });
    expect(res.statusCode, res.body).toBe(200);
    return body(res).result as {
      ok: boolean;
      checked: number;
      headSeq: number;
      headHash: string | null;
      broken: { seq: number; problem: string } | null;
    };
  };
  /** Changes rows as someone with rights on the database would: past the append-only trigger. */
  const asAttacker = async (statement: string, params: unknown[]) => {
    await t.database.sql.transaction(async (tx) => {
      await tx.exec('alter table lift_logbook disable trigger lift_logbook_append_only');
      await tx.query(statement, params);
      await tx.exec('alter table lift_logbook enable trigger lift_logbook_append_only');
    });
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { COMMAND_WAIT_MS: '5000', COMMAND_CANCEL_WINDOW_MS: '300' });
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    adminId = (
      await t.database.sql.query<{ id: string }>(`select id from users where username = 'admin'`)
    )[0]!.id;
    fleet = await ensureDemoFleet(t.database.sql, 3);
    [liftId, tamperLiftId, spareLiftId] = fleet.map((l) => l.id) as [string, string, string];
    // No calls on site but the test's own: each would end a lease (local use).
    sim = spawnSimulator(
      fleet.slice(0, 1),
      `mqtt://127.0.0.1:${t.app.mqtt.options.port}`,
      () => {},
      ['--activity', '0'],
    );
    await sim.ready;
    const op = body(
      await admin.post('/auth/access/system/orgs/create', {
        name: `Logbook operator ${kind}`,
        kind: 'operator',
      }),
    ).result;
    const other = body(
      await admin.post('/auth/access/system/orgs/create', {
        name: `Elsewhere ${kind}`,
        kind: 'operator',
      }),
    ).result;
    expect(
      (
        await admin.post('/auth/access/system/orgs/assign-lifts', {
          orgId: op.id,
          liftIds: fleet.map((l) => l.id),
        })
      ).statusCode,
    ).toBe(200);
    for (const [name, role, orgId] of [
      ['anna', 'operator', op.id],
      ['boris', 'operator', op.id],
      ['vera', 'viewer', op.id],
      ['otto', 'operator', other.id],
    ] as const) {
      const user = await userWithRole(t, adminToken, role, `${name}-${kind}`, orgId);
      u[name] = { id: user.id, username: user.username, api: client(t.app, user.token) };
    }
    await until(
      'the lift online',
      async () =>
        body(await admin.post('/auth/access/lift/getInfo', { liftId })).result.lift.online,
    );
  }, 120_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    await t?.close();
  });

  it('keeps the lease, a command and a configuration change in order, each with who did it', async () => {
    // The configuration: read from the lift, then written (version 0: never configured).
    const read = body(await admin.post('/auth/access/lift/config/read', { liftId })).result;
    expect(read.state, JSON.stringify(read)).toBe('done');
    const write = await admin.post('/auth/access/lift/run/setting/update', {
      liftId,
      config: { ...read.config, stopDecelMs: 1400 },
      version: 0,
    });
    expect(write.statusCode, write.body).toBe(200);
    await until('the configuration change in the logbook', async () =>
      (await page(u.vera.api)).list.some((e) => e.kind === 'config'),
    );
    // To the floor it stands at: done at once.
    const summon = await u.anna.api.post('/auth/access/lift/control', {
      liftId,
      command: 'summon',
      args: { floor: 1 },
      idempotencyKey: newKey(),
    });
    expect(summon.statusCode, summon.body).toBe(200);
    const commandId = body(summon).result.commandId as string;
    // The entry is written with the final state (here the lift's 'done', through ingest).
    const { list } = await until('the summon done in the logbook', async () => {
      const p = await page(u.vera.api);
      return p.list.some((e) => e.data.commandId === commandId) && p;
    });
    // Newest first, seq counting down without a gap.
    expect(list.map((e) => e.seq)).toEqual(list.map((_, i) => list.length - i));
    const oldestFirst = [...list].reverse();
    const lease = oldestFirst.find((e) => e.kind === 'lease')!;
    const command = oldestFirst.find((e) => e.kind === 'command' && e.data.name === 'summon')!;
    const config = oldestFirst.find((e) => e.kind === 'config')!;
    const configCommand = oldestFirst.find(
      (e) => e.kind === 'command' && e.data.name === 'configSet',
    )!;
    expect(lease).toMatchObject({
      actorId: u.anna.id,
      actorName: u.anna.username,
      data: { action: 'taken', epoch: 1, previousHolderId: null },
    });
    expect(command).toMatchObject({
      actorId: u.anna.id,
      actorName: u.anna.username,
      data: {
        commandId,
        type: 'cmd',
        name: 'summon',
        args: { floor: 1 },
        state: 'done',
        reason: null,
        leaseEpoch: 1,
        approval: null,
      },
    });
    expect(config).toMatchObject({
      actorId: adminId,
      actorName: 'admin',
      data: { source: 'cloud', versionBefore: 0, versionAfter: 1 },
    });
    expect(configCommand).toMatchObject({
      actorName: 'admin',
      data: { type: 'config/set', state: 'done' },
    });
    expect(config.seq).toBeLessThan(lease.seq);
    expect(lease.seq).toBeLessThan(command.seq);
    // A configuration read changes nothing on the lift: not in the logbook.
    expect(list.some((e) => e.data.name === 'configGet')).toBe(false);
    // Each entry names the hash of the one before.
    expect(oldestFirst[0]!.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < oldestFirst.length; i++)
      expect(oldestFirst[i]!.prevHash).toBe(oldestFirst[i - 1]!.hash);

    const released = await u.anna.api.post('/auth/access/lift/lease/release', { liftId, epoch: 1 });
    expect(released.statusCode, released.body).toBe(200);
    expect((await page(u.vera.api, { pageSize: 1 })).list[0]).toMatchObject({
      kind: 'lease',
      actorId: u.anna.id,
      data: { action: 'released', epoch: 1 },
    });
  });

  it('keeps an approval request and its decision, by requester and approver', async () => {
    const requested = await u.anna.api.post('/auth/access/lift/approval/request', {
      liftId,
      command: 'aging',
      args: { target: 'overall' },
      reason: 'Yearly endurance check',
      idempotencyKey: newKey(),
    });
    expect(requested.statusCode, requested.body).toBe(200);
    const approvalId = body(requested).result.id as string;
    expect(
      (await u.boris.api.post('/auth/access/lift/approval/reject', { approvalId })).statusCode,
    ).toBe(200);
    const { list } = await page(u.vera.api, { kinds: ['approval'] });
    expect(list.map((e) => [e.actorName, e.data.action, e.data.approvalId])).toEqual([
      [u.boris.username, 'rejected', approvalId],
      [u.anna.username, 'requested', approvalId],
    ]);
    expect(list[1]!.data).toMatchObject({
      command: 'aging',
      args: { target: 'overall' },
      reason: 'Yearly endurance check',
    });
    // The request took the lease for anna: the filter by kind leaves it out, the logbook has it.
    const leases = (await page(u.vera.api, { kinds: ['lease'] })).list;
    expect(leases[0]).toMatchObject({ actorId: u.anna.id, data: { action: 'taken', epoch: 2 } });
    expect(leases.every((e) => e.kind === 'lease')).toBe(true);
  });

  it('keeps a command cancelled in its cancel window once, with its final state', async () => {
    // A window long enough that a busy machine still cancels inside it; the rest keep 300 ms.
    t.app.config.commandCancelWindowMs = 5_000;
    const key = newKey();
    const sending = u.anna.api.post('/auth/access/lift/control', {
      liftId,
      command: 'summon',
      args: { floor: 1 },
      idempotencyKey: key,
    });
    await until(
      'the command in its cancel window',
      async () =>
        (
          await t.database.sql.query(`select id from lift_commands where idempotency_key = $1`, [
            key,
          ])
        ).length === 1,
    );
    const cancel = await u.anna.api.post('/auth/access/lift/command/cancel', {
      liftId,
      idempotencyKey: key,
    });
    t.app.config.commandCancelWindowMs = 300;
    expect(cancel.statusCode, cancel.body).toBe(200);
    const commandId = body(cancel).result.commandId as string;
    expect(body(await sending).result).toMatchObject({ commandId, state: 'cancelled' });
    const entries = (await page(u.vera.api, { kinds: ['command'] })).list.filter(
      (e) => e.data.commandId === commandId,
    );
    expect(entries).toEqual([
      expect.objectContaining({
        actorId: u.anna.id,
        data: expect.objectContaining({
          name: 'summon',
          state: 'cancelled',
          reason: 'cancelled',
          leaseEpoch: 2,
        }),
      }),
    ]);
  });

  it('keeps a credential issued, by whom; a time filter picks entries by their time', async () => {
    const before = new Date().toISOString();
    await t.app.deviceCredentials.issue(spareLiftId, { id: adminId, name: 'admin' });
    const { list } = await page(u.vera.api, {}, spareLiftId);
    expect(list).toEqual([
      expect.objectContaining({
        seq: 1,
        kind: 'credential',
        actorId: adminId,
        actorName: 'admin',
        data: { action: 'issued', deviceNo: fleet[2]!.deviceNo },
      }),
    ]);
    expect((await page(u.vera.api, { from: before }, spareLiftId)).total).toBe(1);
    expect((await page(u.vera.api, { to: before }, spareLiftId)).total).toBe(0);
  });

  it('verifies an intact chain and audits the check', async () => {
    const total = (await page(u.vera.api)).total;
    const result = await verify(liftId);
    expect(result).toMatchObject({ ok: true, checked: total, headSeq: total, broken: null });
    expect(result.headHash).toMatch(/^[0-9a-f]{64}$/);
    const [audit] = await t.database.sql.query<{
      username: string;
      result: string;
      detail: Record<string, unknown>;
    }>(
      `select username, result, detail from audit_log where action = 'lift.verifyLogbook' and lift_id = $1 order by id desc limit 1`,
      [liftId],
    );
    expect(audit).toEqual({
      username: u.vera.username,
      result: 'ok',
      detail: { checked: total, headSeq: total },
    });
  });

  it('exports the entries as CSV an auditor can recompute, audited; a viewer without lift.export is refused', async () => {
    const res = await u.anna.api.post('/auth/access/lift/logbook/export', { liftId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(`logbook-${fleet[0]!.deviceNo}.csv`);
    const rows = csvRows(res.body);
    const { list, total } = await page(u.vera.api);
    expect(rows.length).toBe(total);
    expect(rows.map((r) => Number(r.seq))).toEqual([...list].reverse().map((e) => e.seq));
    // Every field the hash covers is in the file: the chain recomputes from it alone.
    let prevHash = GENESIS_HASH;
    for (const r of rows) {
      const actor = { id: r.actorId || null, name: r.actorName || null };
      expect(r.prevHash).toBe(prevHash);
      expect(
        entryHash({
          liftId,
          seq: Number(r.seq),
          ts: r.ts!,
          kind: r.kind as LogbookEntry['kind'],
          actor,
          data: JSON.parse(r.data!),
          prevHash: r.prevHash!,
        }),
      ).toBe(r.hash);
      prevHash = r.hash!;
    }
    const [audit] = await t.database.sql.query<{
      username: string;
      detail: Record<string, unknown>;
    }>(
      `select username, detail from audit_log where action = 'lift.exportLogbook' and lift_id = $1`,
      [liftId],
    );
    expect(audit).toEqual({ username: u.anna.username, detail: { rows: total } });

    const refused = await u.vera.api.post('/auth/access/lift/logbook/export', { liftId });
    expect([refused.statusCode, body(refused).code]).toEqual([403, 'forbidden']);
  });

  it("answers another organization's lift as not found, and refuses a bad filter with a clear error", async () => {
    for (const route of ['page', 'verify', 'export']) {
      const res = await u.otto.api.post(`/auth/access/lift/logbook/${route}`, { liftId });
      expect([route, res.statusCode, body(res).code]).toEqual([route, 404, 'lift.notFound']);
    }
    const bad = await u.vera.api.post('/auth/access/lift/logbook/page', {
      liftId,
      kinds: ['gossip'],
    });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
  });

  it('chains twenty appends made at once on one lift into one unbroken chain', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        appendLogbookNow(t.database.sql, {
          liftId: tamperLiftId,
          kind: 'incident',
          actor: { id: adminId, name: 'admin' },
          data: { note: `visit ${i}` },
        }),
      ),
    );
    const { list, total } = await page(admin, {}, tamperLiftId);
    expect(total).toBe(20);
    const oldestFirst = [...list].reverse();
    expect(oldestFirst.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(oldestFirst.map((e) => e.data.note)).size).toBe(20);
    for (let i = 1; i < 20; i++) expect(oldestFirst[i]!.prevHash).toBe(oldestFirst[i - 1]!.hash);
    expect(await verify(tamperLiftId, admin)).toMatchObject({ ok: true, checked: 20, headSeq: 20 });
  });

  it('refuses to change or remove an entry; one changed past that is named by verify, and so is one removed', async () => {
    await expect(
      t.database.sql.query(
        `update lift_logbook set data = '{"note":"x"}' where lift_id = $1 and seq = 7`,
        [tamperLiftId],
      ),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.database.sql.query(`delete from lift_logbook where lift_id = $1 and seq = 7`, [
        tamperLiftId,
      ]),
    ).rejects.toThrow(/append-only/);

    const [original] = await t.database.sql.query<{ data: Record<string, unknown> }>(
      `select data from lift_logbook where lift_id = $1 and seq = 7`,
      [tamperLiftId],
    );
    await asAttacker(
      `update lift_logbook set data = '{"note":"nothing happened"}' where lift_id = $1 and seq = 7`,
      [tamperLiftId],
    );
    expect(await verify(tamperLiftId, admin)).toMatchObject({
      ok: false,
      checked: 6,
      broken: { seq: 7, problem: 'altered' },
    });
    const [audit] = await t.database.sql.query<{ result: string; detail: Record<string, unknown> }>(
      `select result, detail from audit_log where action = 'lift.verifyLogbook' and lift_id = $1 order by id desc limit 1`,
      [tamperLiftId],
    );
    expect(audit).toEqual({
      result: 'failed',
      detail: { checked: 6, headSeq: 20, brokenSeq: 7, problem: 'altered' },
    });
    // Put back as it was, the chain is whole again: the check is exact, not a guess.
    await asAttacker(`update lift_logbook set data = $2::jsonb where lift_id = $1 and seq = 7`, [
      tamperLiftId,
      JSON.stringify(original!.data),
    ]);
    expect(await verify(tamperLiftId, admin)).toMatchObject({ ok: true, checked: 20 });

    // Its hash rewritten to match: the next entry no longer follows it.
    const [seven] = await t.database.sql.query<{
      ts: Date;
      data: Record<string, unknown>;
      prev_hash: string;
      hash: string;
    }>(`select ts, data, prev_hash, hash from lift_logbook where lift_id = $1 and seq = 7`, [
      tamperLiftId,
    ]);
    const forged = { note: 'forged' };
    const forgedHash = entryHash({
      liftId: tamperLiftId,
      seq: 7,
      ts: new Date(seven!.ts).toISOString(),
      kind: 'incident',
      actor: { id: adminId, name: 'admin' },
      data: forged,
      prevHash: seven!.prev_hash,
    });
    await asAttacker(
      `update lift_logbook set data = $2::jsonb, hash = $3 where lift_id = $1 and seq = 7`,
      [tamperLiftId, JSON.stringify(forged), forgedHash],
    );
    expect(await verify(tamperLiftId, admin)).toMatchObject({
      ok: false,
      broken: { seq: 8, problem: 'unlinked' },
    });
    await asAttacker(
      `update lift_logbook set data = $2::jsonb, hash = $3 where lift_id = $1 and seq = 7`,
      [tamperLiftId, JSON.stringify(seven!.data), seven!.hash],
    );

    // Two entries swapped: each hash covers its seq.
    const swap = `update lift_logbook set seq = case seq when 3 then -4 else -3 end where lift_id = $1 and seq in (3, 4)`;
    const settle = `update lift_logbook set seq = -seq where lift_id = $1 and seq < 0`;
    await asAttacker(swap, [tamperLiftId]);
    await asAttacker(settle, [tamperLiftId]);
    expect(await verify(tamperLiftId, admin)).toMatchObject({
      ok: false,
      broken: { seq: 3, problem: 'altered' },
    });
    await asAttacker(swap, [tamperLiftId]);
    await asAttacker(settle, [tamperLiftId]);
    expect(await verify(tamperLiftId, admin)).toMatchObject({ ok: true });

    // The newest entry removed: the head still counts it.
    await asAttacker(`delete from lift_logbook where lift_id = $1 and seq = 20`, [tamperLiftId]);
    expect(await verify(tamperLiftId, admin)).toMatchObject({
      ok: false,
      checked: 19,
      broken: { seq: 20, problem: 'missing' },
    });
    // An entry from the middle removed: the gap is named.
    await asAttacker(`delete from lift_logbook where lift_id = $1 and seq = 12`, [tamperLiftId]);
    expect(await verify(tamperLiftId, admin)).toMatchObject({
      ok: false,
      checked: 11,
      broken: { seq: 12, problem: 'missing' },
    });
  });

  it('outlives every retention and cleanup job, and the lift cannot be deleted from under it', async () => {
    const count = async () =>
      Number(
        (await t.database.sql.query<{ n: string }>('select count(*) as n from lift_logbook'))[0]!.n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(0);
    // Ten years on, every other record has gone its way; the logbook stays.
    await recordRetention(t.database.sql, new Date(Date.now() + 10 * 365 * 86_400_000));
    await cleanup(t.database.sql);
    expect(await count()).toBe(before);
    await expect(
      t.database.sql.query('delete from lifts where id = $1', [spareLiftId]),
    ).rejects.toThrow(/lift_logbook/);
  });
});
