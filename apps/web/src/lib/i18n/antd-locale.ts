import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import type { Language } from '@liftlink/protocol';
import { followLanguage } from './language.ts';

/** antd and dayjs locales follow the language; loaded with the first antd screen, not at start. */
const antdLocales: Record<Language, () => Promise<{ default: Locale }>> = {
  'zh-CN': () => import('antd/es/locale/zh_CN'),
  'en-US': () => import('antd/es/locale/en_US'),
  'ru-RU': () => import('antd/es/locale/ru_RU'),
};
const dayjsLocales: Record<Language, { name: string; load: () => Promise<unknown> }> = {
  'zh-CN': { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  'en-US': { name: 'en', load: async () => undefined },
  'ru-RU': { name: 'ru', load: () => import('dayjs/locale/ru') },
};

let current: Locale | undefined;
let requested: Language | undefined;

/** Resolves once antd's and dayjs' locales of the current language are in place. */
export const antdLocaleReady: Promise<void> = followLanguage(async (language) => {
  requested = language;
  const [antd] = await Promise.all([antdLocales[language](), dayjsLocales[language].load()]);
  // A quicker later switch wins over a slow earlier one.
  if (requested !== language) return;
  dayjs.locale(dayjsLocales[language].name);
  current = antd.default;
});

/** antd's locale of the current language (after `antdLocaleReady`). */
export function antdLocale(): Locale | undefined {
  return current;
}
