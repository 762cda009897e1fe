import 'i18next';
import type liftsZhCN from './locales/lifts.zh-CN.ts';
import type manufactureZhCN from './locales/manufacture.zh-CN.ts';
import type zhCN from './locales/zh-CN.ts';

// Typed keys: `t('no.such.key')` is a compile error. The keys of every bundle count.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN & typeof liftsZhCN & typeof manufactureZhCN };
    keySeparator: false;
    nsSeparator: false;
    returnNull: false;
  }
}
