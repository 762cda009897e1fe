import 'i18next';
import type availabilityZhCN from './locales/availability.zh-CN.ts';
import type conditionZhCN from './locales/condition.zh-CN.ts';
import type firmwareZhCN from './locales/firmware.zh-CN.ts';
import type incidentsZhCN from './locales/incidents.zh-CN.ts';
import type liftsZhCN from './locales/lifts.zh-CN.ts';
import type maintenanceZhCN from './locales/maintenance.zh-CN.ts';
import type groupConfigZhCN from './locales/group-config.zh-CN.ts';
import type manufactureZhCN from './locales/manufacture.zh-CN.ts';
import type reportsZhCN from './locales/reports.zh-CN.ts';
import type zhCN from './locales/zh-CN.ts';

// Typed keys: `t('no.such.key')` is a compile error. The keys of every bundle count.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN & typeof liftsZhCN & typeof manufactureZhCN & typeof incidentsZhCN & typeof maintenanceZhCN & typeof groupConfigZhCN & typeof availabilityZhCN & typeof reportsZhCN & typeof conditionZhCN & typeof firmwareZhCN };
    keySeparator: false;
    nsSeparator: false;
    returnNull: false;
  }
}
