import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../constants.ts';
import { AGING_COMMAND_TARGETS, COMMAND_NAMES, COMMAND_STATES, DEFORM_SHAPES, REFUSAL_REASON_CODES, TEST_ITEMS } from '../device/commands.ts';
import { SERIAL_LOG_STEPS } from '../serial/manufacture-api.ts';
import { SERIAL_ERROR_CODES } from '../serial/messages.ts';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTION_NAMES,
  LIFT_AUDIT_ACTIONS,
  auditActionName,
  auditReasonText,
  auditResultText,
  auditSummary,
  commandText,
  type AuditActionDef,
} from './audit-actions.ts';

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('audited actions', () => {
  it.each(AUDIT_ACTION_NAMES)('%s has a name and a summary in every language, and its examples render fully', (action) => {
    const a: AuditActionDef = AUDIT_ACTIONS[action];
    for (const lang of LANGUAGES) {
      expect(a.name[lang].trim(), `${action} name in ${lang}`).not.toBe('');
      for (const [variant, template] of Object.entries(a.summary)) {
        expect(template[lang].trim(), `${action} ${variant} summary in ${lang}`).not.toBe('');
        // Every language fills the same blanks.
        expect(placeholders(template[lang]), `${action} ${variant} in ${lang}`).toEqual(placeholders(template['zh-CN']));
      }
    }
    // The examples reach every wording and hold only the action's own detail keys.
    const reached = new Set(a.examples.map((e) => a.variant?.(e) ?? 'default'));
    expect([...reached].sort()).toEqual(Object.keys(a.summary).sort());
    for (const example of a.examples) {
      for (const key of Object.keys(example)) expect(a.fields, `${action} detail key ${key}`).toContain(key);
      for (const lang of LANGUAGES) {
        const text = auditSummary(action, example, lang);
        expect(text, `${action} in ${lang}: ${text}`).not.toMatch(/\{\w+\}|undefined|\[object|"\w+":/);
        expect(text.trim()).not.toBe('');
      }
    }
  });

  it('says when an entry is the demo fleet\'s generated history', () => {
    const detail = { name: 'restart', args: {}, demo: true };
    expect(auditSummary('lift.command', detail, 'en-US')).toBe('Restart · demo data');
    expect(auditSummary('lift.command', detail, 'ru-RU')).toBe('Перезапуск · демо-данные');
    expect(auditSummary('lift.command', { name: 'restart', args: {} }, 'zh-CN')).toBe('重新启动');
  });

  it('words a factory-bench step and its failure reason in the reader language', () => {
    const channel = { deviceNo: 'LL-0001', channel: 2, enabled: true, slaveAddress: 1, functionCode: 3, startRegister: 0, count: 10, intervalMs: 1000, timeoutMs: 300, retries: 1 };
    expect(auditActionName('manufacture.serial.writeChannel', 'en-US')).toBe('Polling channel written');
    expect(auditSummary('manufacture.serial.writeChannel', channel, 'en-US')).toBe('Polling channel 2: slave 1, function 3, 10 from register 0, every 1000 ms');
    expect(auditSummary('manufacture.serial.writeChannel', channel, 'ru-RU')).toBe('Канал опроса 2: ведомый 1, функция 3, 10 с регистра 0, каждые 1000 мс');
    expect(auditSummary('manufacture.serial.writeConfig', { version: 3 }, 'zh-CN')).toBe('配置版本 3 已写入并保存');
    expect(auditSummary('manufacture.setLiftConfig', { version: 3, code: 'config.reconfigure' }, 'en-US')).toBe('Based on version 3 · Already configured: reconfiguring needs a confirmation');
    expect(auditSummary('lift.command', { name: 'summon', args: { floor: 2 }, reason: 'overloaded' }, 'ru-RU')).toBe('Вызвать на этаж 2 · Платформа перегружена');
    // An unknown language reads zh-CN; an action from an older server keeps its code and detail.
    expect(auditActionName('auth.login', 'xx')).toBe('登录');
    expect(auditActionName('old.thing', 'en-US')).toBe('old.thing');
    expect(auditSummary('old.thing', { a: 1 }, 'en-US')).toBe('{"a":1}');
  });

  it('has an action for every serial step the bench page reports', () => {
    for (const step of SERIAL_LOG_STEPS) expect(AUDIT_ACTION_NAMES).toContain(`manufacture.serial.${step}`);
    expect(LIFT_AUDIT_ACTIONS).toContain('manufacture.serial.writeChannel');
    expect(LIFT_AUDIT_ACTIONS).not.toContain('auth.login');
  });

  it("words every reason a lift, the controller on the bench or the serial link gives", () => {
    const reasons = [...REFUSAL_REASON_CODES, ...SERIAL_ERROR_CODES, 'sendFailed', 'closed', 'unreachable', 'openFailed', 'notOpen', 'lift.offline', 'config.reconfigure'];
    for (const lang of LANGUAGES) for (const reason of reasons) expect(auditReasonText(reason, lang), `${reason} in ${lang}`).not.toBe(reason);
    expect(auditSummary('manufacture.serial.writeConfig', { deviceNo: 'LL-0001', code: 'storage' }, 'en-US')).toBe('Not completed · The controller could not save');
  });

  it('words every command with its arguments and every result', () => {
    const samples = COMMAND_NAMES.flatMap((name): { name: string; args: Record<string, unknown> }[] => {
      if (name === 'summon') return [{ name, args: { floor: 3 } }];
      if (name === 'deform') return DEFORM_SHAPES.map((shape) => ({ name, args: { shape } }));
      if (name === 'aging') return AGING_COMMAND_TARGETS.map((target) => ({ name, args: { target } }));
      if (name === 'test') return TEST_ITEMS.map((item) => ({ name, args: { item } }));
      if (name === 'lock' || name === 'disable') return [true, false].map((on) => ({ name, args: { on } }));
      return [{ name, args: {} }];
    });
    for (const lang of LANGUAGES) {
      const texts = samples.map((s) => commandText(s.name, s.args, lang));
      for (const text of texts) expect(text).not.toMatch(/^[a-z]+$|\{/);
      expect(new Set(texts).size).toBe(texts.length);
      for (const state of [...COMMAND_STATES, 'ok', 'denied']) expect(auditResultText(state, lang)).not.toBe(state);
    }
    expect(commandText('summon', { floor: 3 }, 'en-US')).toBe('Summon to floor 3');
  });
});
