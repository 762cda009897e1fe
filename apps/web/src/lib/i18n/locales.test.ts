import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_CODES, APP_ROUTES, DEVICE_KINDS, type RouteEntry } from '@liftlink/protocol';
import zhCN from './locales/zh-CN.ts';
import enUS from './locales/en-US.ts';
import ruRU from './locales/ru-RU.ts';

const languages = { 'zh-CN': zhCN, 'en-US': enUS, 'ru-RU': ruRU } as Record<
  string,
  Record<string, string>
>;
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

  it('uses the same {{placeholders}} in every language', () => {
    for (const key of reference) {
      const expected = (zhCN[key as keyof typeof zhCN].match(/{{\w+}}/g) ?? []).sort();
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
