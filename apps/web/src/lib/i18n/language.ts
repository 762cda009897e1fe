import { useSyncExternalStore } from 'react';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import { DEFAULT_LANGUAGE, type Language } from '@liftlink/protocol';
import { i18n, initI18n, isLanguage, LANGUAGE_STORAGE_KEY, storedLanguage } from './i18n.ts';

/** antd and dayjs locales follow the language (zh-CN is antd's own default text too). */
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

interface LanguageState {
  language: Language;
  antdLocale: Locale | undefined;
}

let state: LanguageState = { language: DEFAULT_LANGUAGE, antdLocale: undefined };
const listeners = new Set<() => void>();

function publish(next: LanguageState): void {
  state = next;
  for (const listener of listeners) listener();
}

async function load(language: Language): Promise<LanguageState> {
  const [antd] = await Promise.all([
    antdLocales[language](),
    dayjsLocales[language].load(),
    initI18n(language),
  ]);
  await i18n.changeLanguage(language);
  dayjs.locale(dayjsLocales[language].name);
  document.documentElement.lang = language;
  return { language, antdLocale: antd.default };
}

/** Loads the stored (or default) language before the first render. */
export async function bootLanguage(): Promise<void> {
  publish(await load(storedLanguage() ?? DEFAULT_LANGUAGE));
}

/** Switches every text, antd and dayjs; remembers the choice in this browser. */
export async function changeLanguage(language: Language): Promise<void> {
  if (!isLanguage(language)) return;
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  publish(await load(language));
}

export function currentLanguage(): Language {
  return state.language;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLanguage(): LanguageState {
  return useSyncExternalStore(subscribe, () => state);
}

/** Each language names itself in the selector. */
export const LANGUAGE_LABELS: Record<Language, string> = {
  'zh-CN': '简体中文',
  'en-US': 'English',
  'ru-RU': 'Русский',
};
