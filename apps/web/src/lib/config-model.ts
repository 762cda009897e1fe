import {
  CONFIG_GROUPS,
  changedConfigKeys,
  configField,
  configFieldsFor,
  forbiddenConfigKeys,
  validateConfigChange,
  type ConfigField,
  type ConfigGroup,
  type ConfigIssue,
  type ConfigPart,
  type ConfigValue,
  type ConfigWriteRole,
  type DeviceKind,
  type LiftConfig,
} from '@liftlink/protocol';
import { hasKey, translateIssue, tx } from './i18n/i18n.ts';

/** The configuration pages in the spec's order: running, platform (P), housing (J). */
export const CONFIG_PARTS: readonly ConfigPart[] = ['run', 'P', 'J'];

export type ConfigFormValues = Record<string, ConfigValue | null | undefined>;

export interface ConfigSection {
  part: ConfigPart;
  groups: { group: ConfigGroup; fields: ConfigField[] }[];
}

/** The fields of a lift with `floors` floors, by part and then by group (schema order). */
export function configSections(floors: number): ConfigSection[] {
  const fields = configFieldsFor(floors);
  return CONFIG_PARTS.map((part) => ({
    part,
    groups: CONFIG_GROUPS.map((group) => ({
      group,
      fields: fields.filter((f) => f.part === part && f.group === group),
    })).filter((g) => g.fields.length > 0),
  })).filter((s) => s.groups.length > 0);
}

/** Form values -> a configuration: only the lift's fields; an emptied field is left out. */
export function formToConfig(values: ConfigFormValues, floors: number): LiftConfig {
  const config: LiftConfig = {};
  for (const field of configFieldsFor(floors)) {
    const value = values[field.key];
    if (value !== null && value !== undefined && value !== '') config[field.key] = value;
  }
  return config;
}

/**
 * Every problem of a new configuration, from the shared schema (empty, type, range, the
 * minimum 20000, order between fields) and the ±500 rule against the current values.
 */
export function configIssues(
  current: LiftConfig | null,
  next: LiftConfig,
  floors: number,
): ConfigIssue[] {
  return validateConfigChange(current, next, floors);
}

/** The text of a configuration issue, with its limit ({max}, {min}, {tolerance}). */
export function configIssueText(issue: Pick<ConfigIssue, 'message' | 'params'>): string {
  const name = issue.message.replace(/^validation\./, '');
  const key = `config.issue.${name}`;
  if (hasKey(key)) return tx(key, { ...issue.params });
  return translateIssue(issue.message);
}

/** The label of a field; per-floor fields name their floor. */
export function fieldLabel(key: string): string {
  const field = configField(key);
  if (!field) return key;
  return tx(`config.field.${field.baseKey}`, field.floor ? { floor: field.floor } : {});
}

export function unitLabel(field: ConfigField): string {
  return field.unit ? tx(`config.unit.${field.unit}`) : '';
}

/** A value as people read it: yes / no, option names, numbers with their unit. */
export function valueText(key: string, value: ConfigValue | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const field = configField(key);
  if (typeof value === 'boolean') return tx(value ? 'common.yes' : 'common.no');
  if (field?.type === 'enum') {
    const optionKey = `config.option.${field.baseKey}.${String(value)}`;
    return hasKey(optionKey) ? tx(optionKey) : String(value);
  }
  const unit = field ? unitLabel(field) : '';
  return unit ? `${String(value)} ${unit}` : String(value);
}

export interface ConfigChange {
  key: string;
  before: ConfigValue | undefined;
  after: ConfigValue | undefined;
}

/** What a send would change, in schema order (fields the schema does not know last). */
export function configDiff(before: LiftConfig | null, after: LiftConfig | null): ConfigChange[] {
  if (!after) return [];
  const keys = changedConfigKeys(before, after);
  const order = new Map<string, number>();
  configFieldsFor(4).forEach((f, i) => order.set(f.key, i));
  return keys
    .sort((a, b) => (order.get(a) ?? 1e6) - (order.get(b) ?? 1e6) || a.localeCompare(b))
    .map((key) => ({ key, before: before?.[key], after: after[key] }));
}

/** A configuration file as LiftLink exports it. */
export interface ConfigFile {
  type: 'liftlink-config';
  formatVersion: 1;
  deviceNo: string | null;
  kind: DeviceKind;
  floors: number;
  configVersion: number;
  exportedAt: string;
  config: LiftConfig;
}

export const CONFIG_FILE_TYPE = 'liftlink-config';

export function configFile(
  lift: { deviceNo: string | null; kind: DeviceKind; floors: number; configVersion: number },
  config: LiftConfig,
  now: Date = new Date(),
): ConfigFile {
  return {
    type: CONFIG_FILE_TYPE,
    formatVersion: 1,
    deviceNo: lift.deviceNo,
    kind: lift.kind,
    floors: lift.floors,
    configVersion: lift.configVersion,
    exportedAt: now.toISOString(),
    config,
  };
}

export function configFileName(deviceNo: string | null, now: Date = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return `config-${deviceNo ?? 'lift'}-${day}.json`;
}

export type ImportResult =
  | { ok: true; config: LiftConfig }
  /** `error`: an i18n key for the whole file; `issues`: per field. */
  | { ok: false; error: string | null; issues: ConfigIssue[] };

/**
 * Reads a configuration file and checks it completely before anything is sent: JSON, the
 * lift it was made for (kind and floors), every field by the shared schema and the ±500
 * rule, and the fields this user may write.
 */
export function parseConfigFile(
  text: string,
  lift: { kind: DeviceKind; floors: number },
  current: LiftConfig | null,
  role: ConfigWriteRole,
): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'config.file.notJson', issues: [] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, error: 'config.file.invalid', issues: [] };
  const wrapped = data as Partial<ConfigFile>;
  const isWrapped = wrapped.type === CONFIG_FILE_TYPE;
  const config = isWrapped ? wrapped.config : (data as Record<string, unknown>);
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    return { ok: false, error: 'config.file.invalid', issues: [] };
  if (isWrapped && (wrapped.kind !== lift.kind || wrapped.floors !== lift.floors))
    return { ok: false, error: 'config.file.mismatch', issues: [] };
  const issues = validateConfigChange(current, config, lift.floors);
  if (issues.length > 0) return { ok: false, error: null, issues };
  const next = config as LiftConfig;
  const forbidden = forbiddenConfigKeys(current, next, role);
  if (forbidden.length > 0)
    return {
      ok: false,
      error: null,
      issues: forbidden.map((path) => ({ path, message: 'validation.manufacturerOnly' })),
    };
  return { ok: true, config: next };
}

/** Server issues name fields as `config.<key>`: the form's field names are the keys. */
export function issueField(path: string): string {
  return path.startsWith('config.') ? path.slice('config.'.length) : path;
}
