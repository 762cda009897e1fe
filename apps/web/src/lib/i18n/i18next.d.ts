import 'i18next';
import type zhCN from './locales/zh-CN.ts';

// Typed keys: `t('no.such.key')` is a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
    keySeparator: false;
    nsSeparator: false;
    returnNull: false;
  }
}
