import { DEFAULT_LANGUAGE, type Language } from '../constants.ts';

/** A text in the three languages, for the few device texts the server itself must answer in. */
export type LocalizedText = Record<Language, string>;

export const localized = (zh: string, en: string, ru: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, 'ru-RU': ru });

/** The text in `lang`, falling back to zh-CN for an unknown language. */
export function pickText(text: LocalizedText, lang: string): string {
  return text[lang as Language] ?? text[DEFAULT_LANGUAGE];
}
