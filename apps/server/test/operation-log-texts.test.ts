import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, DEFAULT_POLLING_CHANNEL, isAuditAction, type AuditActionDef } from '@liftlink/protocol';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

const CONTROLLER = { kind: 'inclinedStraightRack', floors: 2, firmware: 'FW-1.0.0', controllerSerial: 'CTL-TEXTS-0001' } as const;
const CHANNEL = { channel: 2, ...DEFAULT_POLLING_CHANNEL, enabled: true };

/** The operation log and its CSV export speak the reader's language: action names and summaries, never keys or JSON. */
describe.each(DB_KINDS)('operation log texts on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let engineer: ReturnType<typeof client>;
  let adminToken: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { COMMAND_WAIT_MS: '500' });
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    const [maker] = await t.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer'`);
    engineer = client(t.app, (await userWithRole(t, adminToken, 'manufacturerEngineer', undefined, maker!.id)).token);

    // A bench session: register the controller, report serial steps, send a configuration to the (offline) lift.
    const assigned = await engineer.post('/manufacture/lift/updateLiftIotInfo', { mode: 'assign', deviceNo: 'LL-3001', ...CONTROLLER });
    const liftId = body(assigned).result.liftId as string;
    const report = (step: string, result: string, detail: object) => engineer.post('/manufacture/lift/serial/log', { step, result, controllerSerial: CONTROLLER.controllerSerial, deviceNo: 'LL-3001', detail });
    expect((await report('writeChannel', 'ok', CHANNEL)).statusCode).toBe(200);
    await report('writeConfig', 'ok', { version: 3 });
    await report('writePort', 'ok', { baudRate: 9600, dataBits: 8, parity: 'even', stopBits: 1 });
    await engineer.post('/manufacture/lift/setLiftConfig', { liftId, version: 0, config: {} });
    await engineer.post('/manufacture/lift/run/config/set', { liftId, version: 0, config: { voiceLanguage: 'en' } });
    await engineer.post('/manufacture/bridge/pair', {});
    await admin.post('/auth/access/lift/alias/update', { liftId, alias: 'Bench lift' });
    await admin.post('/auth/access/lift/control', { liftId, command: 'summon', args: { floor: 2 } });
    // Refusals are audited too.
    await client(t.app).post('/auth/access/login', { username: 'admin', password: 'wrong-password' });
    const viewer = await userWithRole(t, adminToken, 'viewer');
    await client(t.app, viewer.token).get('/auth/access/system/users');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const exportCsv = async (query: string) => {
    const res = await admin.get(`/auth/access/operation-log/export?${query}`);
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('exports a factory-bench step by name and summary in Russian and Chinese, without keys or JSON', async () => {
    const ru = await exportCsv('action=manufacture.serial.writeChannel&lang=ru-RU');
    expect(ru).toContain('"Запись канала опроса"');
    expect(ru).toContain('"Канал опроса 2: ведомый 1, функция 3, 10 с регистра 0, каждые 1000 мс"');
    expect(ru).toContain('"Выполнено"');
    expect(ru).not.toContain('manufacture.serial');
    expect(ru).not.toContain('"count"');

    const zh = await exportCsv('action=manufacture.serial.writeChannel&lang=zh-CN');
    expect(zh).toContain('"串口写入轮询通道"');
    expect(zh).toContain('"轮询通道 2：从站 1，功能码 3，自寄存器 0 起 10 个，每 1000 毫秒"');
    expect(zh).toContain('"成功"');

    const config = await exportCsv('action=manufacture.serial.writeConfig&lang=en-US');
    expect(config).toContain('"Configuration version 3 written and saved"');
    const port = await exportCsv('action=manufacture.serial.writePort&lang=ru-RU');
    expect(port).toContain('чётность чёт');
  });

  it('words a failed configuration and its reason, and follows the user language when none is asked for', async () => {
    const invalid = await exportCsv('action=manufacture.setLiftConfig&lang=en-US');
    expect(invalid).toContain('"Whole configuration sent","Failed","Based on version 0 · The data is not valid"');
    const offline = await exportCsv('action=manufacture.runConfig&lang=zh-CN');
    expect(offline).toContain('"下发运行设置","失败","基于版本 0 · 设备离线"');
    const command = await exportCsv('action=lift.command&lang=ru-RU');
    expect(command).toContain('"Вызвать на этаж 2 · Лифт не в сети"');

    await t.database.sql.query(`update users set language = 'en-US' where username = 'admin'`);
    try {
      expect(await exportCsv('action=lift.alias')).toContain('"Renamed","Done","— → Bench lift"');
    } finally {
      await t.database.sql.query(`update users set language = 'zh-CN' where username = 'admin'`);
    }
  });

  it('audits only actions of the table, with only their declared detail keys', async () => {
    const rows = await t.database.sql.query<{ action: string; detail: Record<string, unknown> }>('select action, detail from audit_log');
    const actions = new Set(rows.map((r) => r.action));
    // The routes above reached the bench, lift, sign-in and access checks.
    for (const a of ['manufacture.assignDeviceNo', 'manufacture.serial.writeChannel', 'manufacture.setLiftConfig', 'manufacture.runConfig', 'manufacture.bridgePairCode', 'lift.configure', 'lift.command', 'lift.alias', 'auth.login', 'access.denied', 'user.create']) expect(actions).toContain(a);
    for (const row of rows) {
      expect(isAuditAction(row.action), row.action).toBe(true);
      const def = (AUDIT_ACTIONS as Record<string, AuditActionDef>)[row.action]!;
      for (const key of Object.keys(row.detail)) expect(def.fields, `${row.action} detail key ${key}`).toContain(key);
    }
  });
});
