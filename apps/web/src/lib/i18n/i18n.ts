import i18next, { type BackendModule, type i18n as I18n, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@liftlink/protocol';

/**
 * The texts every screen needs, one file per language; only the chosen language (and the
 * zh-CN fallback) is downloaded. The lift screens' and the factory bench's texts are
 * bundles of their own, loaded with those pages (`withTexts`).
 */
export const localeLoaders: Record<Language, () => Promise<{ default: Record<string, string> }>> = {
  'zh-CN': () => import('./locales/zh-CN.ts'),
  'en-US': () => import('./locales/en-US.ts'),
  'ru-RU': () => import('./locales/ru-RU.ts'),
};

const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const loader = localeLoaders[language as Language];
    if (!loader) {
      callback(null, {});
      return;
    }
    loader().then(
      (module) => callback(null, module.default as ResourceKey),
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

type Texts = () => Promise<{ default: Record<string, string> }>;

/** The texts of the lift screens, the factory bench and the incidents, per language. */
export const textBundles = {
  lifts: {
    'zh-CN': () => import('./locales/lifts.zh-CN.ts'),
    'en-US': () => import('./locales/lifts.en-US.ts'),
    'ru-RU': () => import('./locales/lifts.ru-RU.ts'),
  },
  manufacture: {
    'zh-CN': () => import('./locales/manufacture.zh-CN.ts'),
    'en-US': () => import('./locales/manufacture.en-US.ts'),
    'ru-RU': () => import('./locales/manufacture.ru-RU.ts'),
  },
  incidents: {
    'zh-CN': () => import('./locales/incidents.zh-CN.ts'),
    'en-US': () => import('./locales/incidents.en-US.ts'),
    'ru-RU': () => import('./locales/incidents.ru-RU.ts'),
  },
  maintenance: {
    'zh-CN': () => import('./locales/maintenance.zh-CN.ts'),
    'en-US': () => import('./locales/maintenance.en-US.ts'),
    'ru-RU': () => import('./locales/maintenance.ru-RU.ts'),
  },
  groupConfig: {
    'zh-CN': () => import('./locales/group-config.zh-CN.ts'),
    'en-US': () => import('./locales/group-config.en-US.ts'),
    'ru-RU': () => import('./locales/group-config.ru-RU.ts'),
  },
  availability: {
    'zh-CN': () => import('./locales/availability.zh-CN.ts'),
    'en-US': () => import('./locales/availability.en-US.ts'),
    'ru-RU': () => import('./locales/availability.ru-RU.ts'),
  },
  reports: {
    'zh-CN': () => import('./locales/reports.zh-CN.ts'),
    'en-US': () => import('./locales/reports.en-US.ts'),
    'ru-RU': () => import('./locales/reports.ru-RU.ts'),
  },
  condition: {
    'zh-CN': () => import('./locales/condition.zh-CN.ts'),
    'en-US': () => import('./locales/condition.en-US.ts'),
    'ru-RU': () => import('./locales/condition.ru-RU.ts'),
  },
  firmware: {
    'zh-CN': () => import('./locales/firmware.zh-CN.ts'),
    'en-US': () => import('./locales/firmware.en-US.ts'),
    'ru-RU': () => import('./locales/firmware.ru-RU.ts'),
  },
} satisfies Record<string, Record<Language, Texts>>;
export type TextBundle = keyof typeof textBundles;

export const LANGUAGE_STORAGE_KEY = 'liftlink.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored explicit choice, if any. */
export function storedLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

export const i18n: I18n = i18next.createInstance();

let ready: Promise<unknown> | null = null;

export function initI18n(
  language: Language = storedLanguage() ?? DEFAULT_LANGUAGE,
): Promise<unknown> {
  ready ??= i18n
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      // Keys are flat strings such as `menu.dashboard.workplace`.
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
  return ready;
}

/** A key built at run time (an API code, a route title from the server). */
export function tx(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options as never) as unknown as string;
}

export function hasKey(key: string): boolean {
  return i18n.exists(key);
}

/** The text of an API code (`errors.<code>`), else the server's readable msg. */
export function translateError(code: string, fallback?: string): string {
  if (hasKey(`errors.${code}`)) return tx(`errors.${code}`);
  return fallback && fallback.length > 0 ? fallback : tx('errors.unknown');
}

/** A validation message key from the shared zod schemas (`validation.required`, ...). */
export function translateIssue(message: string): string {
  return hasKey(message) ? tx(message) : message;
}
