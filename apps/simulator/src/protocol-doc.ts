import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ALARM_BATTERY_LOW_PERCENT, ALARM_TEST_MAX_HOURS, ALARM_TEST_PARTS, ALARM_TEST_PART_TEXTS, CONFIG_FIELDS, EVENT_TABLE, PRESENCE_REASON_NAMES, PRESENCE_REASONS, RECONNECT_RULE, REFUSAL_REASONS, presenceCode, reconnectBoundMs, refusedReconnectDelayMs, type ConfigField } from '@liftlink/protocol';

/**
 * The tables of docs/protocol.md that come straight from the protocol package (event
 * codes, presence reasons, refusal reasons, configuration fields, the reconnect rule, the alarm device), so the document cannot drift from the
 * code. Run `node --import tsx apps/simulator/src/protocol-doc.ts` to refresh them; a test
 * fails when they are stale.
 */
export const PROTOCOL_DOC = fileURLToPath(new URL('../../../docs/protocol.md', import.meta.url));

const row = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
const table = (head: string[], rows: (string | number)[][]) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

export function eventTable(): string {
  return table(
    ['Code', 'Class', 'en-US', 'zh-CN', 'ru-RU'],
    EVENT_TABLE.map((e) => [`\`${e.code}\``, e.class, e.text['en-US'], e.text['zh-CN'], e.text['ru-RU']]),
  );
}

export function presenceReasonTable(): string {
  return table(
    ['Reason', 'Code', 'en-US', 'zh-CN', 'ru-RU'],
    PRESENCE_REASON_NAMES.map((r) => [`\`${r}\``, `\`${presenceCode(r)}\``, PRESENCE_REASONS[r].text['en-US'], PRESENCE_REASONS[r].text['zh-CN'], PRESENCE_REASONS[r].text['ru-RU']]),
  );
}

export function refusalTable(): string {
  return table(
    ['Reason', 'en-US', 'zh-CN', 'ru-RU'],
    Object.entries(REFUSAL_REASONS).map(([code, t]) => [`\`${code}\``, t['en-US'], t['zh-CN'], t['ru-RU']]),
  );
}

function range(f: ConfigField): string {
  if (f.type === 'boolean') return 'true / false';
  if (f.type === 'enum') return (f.options ?? []).map((o) => `\`${o}\``).join(', ');
  return `${f.min ?? ''} … ${f.max ?? ''}`;
}

function notes(f: ConfigField): string {
  const n: string[] = [];
  if (f.floor) n.push(`floor ${f.floor}`);
  if (f.minConfigured) n.push('min configured value');
  if (f.positionTolerance) n.push('edit ±500');
  return n.join('; ');
}

export function configTable(): string {
  return table(
    ['Key', 'Group', 'Part', 'Type', 'Unit', 'Range', 'Default*', 'Written by', 'Notes'],
    CONFIG_FIELDS.map((f) => [`\`${f.key}\``, f.group, f.part, f.type, f.unit ?? '', range(f), `\`${String(f.default)}\``, f.writeRole, notes(f)]),
  );
}

const RECONNECT_TEXTS: Record<keyof typeof RECONNECT_RULE, string> = {
  baseMs: 'attempt n ≥ 1 waits random in [0, min(cap, base · 2^n))',
  capMs: 'the longest wait',
  firstTryWindowMs: 'the first try after a lost connection waits random in [0, window)',
  stableMs: 'a connection up this long resets the attempts',
  connectTimeoutMs: 'a try without TCP connection, TLS handshake and CONNACK in this time fails',
};

const seconds = (ms: number) => `${ms / 1000} s`;

export function reconnectRuleTable(): string {
  return table(
    ['Constant', 'Value', 'Meaning'],
    (Object.keys(RECONNECT_TEXTS) as (keyof typeof RECONNECT_RULE)[]).map((k) => [`\`${k}\``, seconds(RECONNECT_RULE[k]), RECONNECT_TEXTS[k]]),
  );
}

/** The waits attempt by attempt, up to the first at the cap, and after a refusal. */
export function reconnectWaitsTable(): string {
  const rows: string[][] = [];
  for (let n = 0; n === 0 || reconnectBoundMs(n - 1) < RECONNECT_RULE.capMs; n += 1) {
    rows.push([n === 0 ? '0 (first try after a lost connection)' : String(n), `0 … ${seconds(reconnectBoundMs(n))}`]);
  }
  rows.at(-1)![0] += ' and later';
  rows.push(['after a refusal', `${seconds(refusedReconnectDelayMs(() => 0))} … ${seconds(RECONNECT_RULE.capMs)}`]);
  return table(['Attempt', 'Waits'], rows);
}

/** The alarm device's limits and the parts a self-test names when they fail. */
export function alarmDeviceTable(): string {
  return table(
    ['Constant', 'Value', 'Meaning'],
    [
      ['`ALARM_TEST_MAX_HOURS`', `${ALARM_TEST_MAX_HOURS} h`, 'a lift with no passed self-test for longer has missed its test (EN 81-28: at least every 3 days)'],
      ['`ALARM_BATTERY_LOW_PERCENT`', `${ALARM_BATTERY_LOW_PERCENT} %`, 'a charge at or below it is low, whatever the `low` flag says'],
    ],
  );
}

export function alarmTestPartTable(): string {
  return table(
    ['Part', 'en-US', 'zh-CN', 'ru-RU'],
    ALARM_TEST_PARTS.map((p) => [`\`${p}\``, ALARM_TEST_PART_TEXTS[p]['en-US'], ALARM_TEST_PART_TEXTS[p]['zh-CN'], ALARM_TEST_PART_TEXTS[p]['ru-RU']]),
  );
}

const SECTIONS: Record<string, () => string> = {
  events: eventTable,
  presenceReasons: presenceReasonTable,
  refusals: refusalTable,
  config: configTable,
  reconnectRule: reconnectRuleTable,
  reconnectWaits: reconnectWaitsTable,
  alarmDevice: alarmDeviceTable,
  alarmTestParts: alarmTestPartTable,
};

/** Replaces every `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` block with the current table. */
export function renderGenerated(doc: string): string {
  return doc.replace(/(<!-- generated:(\w+) -->\n)[\s\S]*?(\n<!-- \/generated:\2 -->)/g, (whole, open: string, name: string, close: string) => {
    const render = SECTIONS[name];
    return render ? `${open}${render()}${close}` : whole;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = await readFile(PROTOCOL_DOC, 'utf8');
  await writeFile(PROTOCOL_DOC, renderGenerated(doc));
  process.stderr.write(`updated ${PROTOCOL_DOC}\n`);
}
