import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALERT_KINDS, API_CODES, APP_ROUTES, DEVICE_KINDS, type RouteEntry } from '@liftlink/protocol';
import mainZhCN from './locales/zh-CN.ts';
import mainEnUS from './locales/en-US.ts';
import mainRuRU from './locales/ru-RU.ts';
import liftsZhCN from './locales/lifts.zh-CN.ts';
import liftsEnUS from './locales/lifts.en-US.ts';
import liftsRuRU from './locales/lifts.ru-RU.ts';
import manufactureZhCN from './locales/manufacture.zh-CN.ts';
import manufactureEnUS from './locales/manufacture.en-US.ts';
import manufactureRuRU from './locales/manufacture.ru-RU.ts';
import incidentsZhCN from './locales/incidents.zh-CN.ts';
import incidentsEnUS from './locales/incidents.en-US.ts';
import incidentsRuRU from './locales/incidents.ru-RU.ts';
import maintenanceZhCN from './locales/maintenance.zh-CN.ts';
import maintenanceEnUS from './locales/maintenance.en-US.ts';
import maintenanceRuRU from './locales/maintenance.ru-RU.ts';
import groupConfigZhCN from './locales/group-config.zh-CN.ts';
import groupConfigEnUS from './locales/group-config.en-US.ts';
import groupConfigRuRU from './locales/group-config.ru-RU.ts';
import availabilityZhCN from './locales/availability.zh-CN.ts';
import availabilityEnUS from './locales/availability.en-US.ts';
import availabilityRuRU from './locales/availability.ru-RU.ts';
import conditionZhCN from './locales/condition.zh-CN.ts';
import conditionEnUS from './locales/condition.en-US.ts';
import conditionRuRU from './locales/condition.ru-RU.ts';
import reportsZhCN from './locales/reports.zh-CN.ts';
import reportsEnUS from './locales/reports.en-US.ts';
import reportsRuRU from './locales/reports.ru-RU.ts';
import firmwareZhCN from './locales/firmware.zh-CN.ts';
import firmwareEnUS from './locales/firmware.en-US.ts';
import firmwareRuRU from './locales/firmware.ru-RU.ts';

/** Each language's texts in its bundles: the main file and those loaded with their pages. */
const bundles = {
  'zh-CN': [mainZhCN, liftsZhCN, manufactureZhCN, incidentsZhCN, maintenanceZhCN, groupConfigZhCN, availabilityZhCN, reportsZhCN, conditionZhCN, firmwareZhCN],
  'en-US': [mainEnUS, liftsEnUS, manufactureEnUS, incidentsEnUS, maintenanceEnUS, groupConfigEnUS, availabilityEnUS, reportsEnUS, conditionEnUS, firmwareEnUS],
  'ru-RU': [mainRuRU, liftsRuRU, manufactureRuRU, incidentsRuRU, maintenanceRuRU, groupConfigRuRU, availabilityRuRU, reportsRuRU, conditionRuRU, firmwareRuRU],
} as Record<string, Record<string, string>[]>;
const languages = Object.fromEntries(
  Object.entries(bundles).map(([language, parts]) => [language, Object.assign({}, ...parts)]),
) as Record<string, Record<string, string>>;
const zhCN = languages['zh-CN']!;
const reference = Object.keys(zhCN).sort();

function titles(routes: readonly RouteEntry[]): string[] {
  return routes.flatMap((r) => [r.meta?.title ?? r.name, ...titles(r.children ?? [])]);
}

describe('translations', () => {
  it.each(Object.keys(languages))('%s has exactly the keys of zh-CN, none empty', (language) => {
    const texts = languages[language]!;
    expect(Object.keys(texts).sort()).toEqual(reference);
    for (const [key, text] of Object.entries(texts))
      expect(text.trim(), `${language} ${key}`).not.toBe('');
  });

  it.each(Object.keys(bundles))('%s has each key in the same bundle as zh-CN, once', (language) => {
    const parts = bundles[language]!;
    bundles['zh-CN']!.forEach((reference, i) =>
      expect(Object.keys(parts[i]!).sort()).toEqual(Object.keys(reference).sort()),
    );
    const total = parts.reduce((sum, part) => sum + Object.keys(part).length, 0);
    expect(total).toBe(Object.keys(languages[language]!).length);
  });

  it('uses the same {{placeholders}} in every language', () => {
    for (const key of reference) {
      const expected = (zhCN[key]!.match(/{{\w+}}/g) ?? []).sort();
      for (const [language, texts] of Object.entries(languages)) {
        expect((texts[key]!.match(/{{\w+}}/g) ?? []).sort(), `${language} ${key}`).toEqual(
          expected,
        );
      }
    }
  });

  it('names every API code, route title, device kind and validation message of the protocol', () => {
    const needed = [
      ...Object.keys(API_CODES).map((code) => `errors.${code}`),
      ...titles(APP_ROUTES),
      ...DEVICE_KINDS.map((kind) => `device.kind.${kind}`),
      ...ALERT_KINDS.map((kind) => `alert.kind.${kind}`),
    ];
    const protocolDir = path.resolve(import.meta.dirname, '../../../../../packages/protocol/src');
    const sources = readdirSync(protocolDir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    for (const file of sources) {
      const text = readFileSync(path.join(protocolDir, file), 'utf8');
      for (const match of text.matchAll(/'(validation\.\w+)'/g))
        if (match[1] !== 'validation.failed') needed.push(match[1]!);
    }
    expect(needed.filter((key) => !(key in zhCN))).toEqual([]);
  });
});
