import { useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, type Language } from '@liftlink/protocol';
import {
  i18n,
  initI18n,
  isLanguage,
  LANGUAGE_STORAGE_KEY,
  storedLanguage,
  textBundles,
  type TextBundle,
} from './i18n.ts';

interface LanguageState {
  language: Language;
}

let state: LanguageState = { language: DEFAULT_LANGUAGE };
const listeners = new Set<() => void>();

function publish(next: LanguageState): void {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * What else follows the language once it is on the page (antd's and dayjs' locales, see
 * antd-locale.ts): the sign-in page has no antd, so these register themselves when the
 * code that needs them loads, and a switch waits for them before anything re-renders.
 */
const followers: ((language: Language) => Promise<void>)[] = [];

export function followLanguage(load: (language: Language) => Promise<void>): Promise<void> {
  followers.push(load);
  return load(state.language);
}

async function load(language: Language): Promise<LanguageState> {
  await Promise.all([initI18n(language), ...followers.map((follow) => follow(language))]);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
  return { language };
}

/** Loads the stored (or default) language before the first render. */
export async function bootLanguage(): Promise<void> {
  publish(await load(storedLanguage() ?? DEFAULT_LANGUAGE));
}

/** Switches every text (and antd and dayjs once loaded); remembers the choice in this browser. */
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

const bundlesInUse = new Map<TextBundle, Promise<void>>();

/** Adds a bundle's texts for a language (and for the zh-CN fallback) to i18next. */
async function addBundle(bundle: TextBundle, language: Language): Promise<void> {
  await initI18n();
  const languages = language === DEFAULT_LANGUAGE ? [language] : [language, DEFAULT_LANGUAGE];
  // The main texts first: i18next loads a language only when it has no texts for it yet.
  await i18n.loadLanguages(languages);
  await Promise.all(
    languages.map(async (lng) => {
      const texts = await textBundles[bundle][lng]();
      i18n.addResourceBundle(lng, 'translation', texts.default, true, true);
    }),
  );
}

/**
 * Loads a page's code together with the text bundles it needs; from then on the bundles
 * follow every language switch too (the switch waits for them).
 */
export function withTexts<T>(bundles: TextBundle[], load: () => Promise<T>): () => Promise<T> {
  return async () => {
    const texts = bundles.map((bundle) => {
      let ready = bundlesInUse.get(bundle);
      if (!ready) {
        ready = followLanguage((language) => addBundle(bundle, language));
        // A failed download may be tried again by the next page that needs it.
        void ready.catch(() => bundlesInUse.delete(bundle));
        bundlesInUse.set(bundle, ready);
      }
      return ready;
    });
    const [module] = await Promise.all([load(), ...texts]);
    return module;
  };
}
