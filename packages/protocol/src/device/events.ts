import { z } from 'zod';
import { DEFAULT_LANGUAGE } from '../constants.ts';
import type { FaultCode } from './status.ts';
import { localized, pickText, type LocalizedText } from './texts.ts';

/**
 * Run-log event codes (spec section 4) with their class and meaning in the three
 * languages. The texts live here, not in the web client, because the server answers the
 * run log in the caller's language. Codes are case-sensitive: RZOS (lock on) and
 * RZOs (lock off), RZOJ (disable on) and RZOj (disable off) are different events.
 *
 * Most codes are sent by the lift (`source: 'lift'`). The device connection events of
 * the spec ("device online", "device offline") are written by the cloud when it sees the
 * transition (`source: 'cloud'`), each with a reason (PRESENCE_REASONS); a lift may not
 * send them.
 */
export type EventClass = 'state' | 'fault';
export type EventSource = 'lift' | 'cloud';
export interface EventDef {
  code: string;
  class: EventClass;
  source: EventSource;
  text: LocalizedText;
}

type N = 1 | 2 | 3 | 4;
type D = 1 | 2 | 3 | 4 | 5;
export type EventCode =
  | 'RZOP' | 'RZOS' | 'RZOs' | 'RZOT' | 'RZOJ' | 'RZOj'
  | 'RZGU' | 'RZGD' | 'RZGS' | 'RZLB' | 'RZLK' | 'RZLM'
  | `RZM${N}` | `RZY${N}` | `RZD${N}` | `RZB${D}` | `RZF${D}`
  | FaultCode;
/** The codes the cloud writes itself: a lift's connection coming up and going down. */
export type PresenceCode = 'ONLINE' | 'OFFLINE';
/** The codes the cloud writes when a lift's maintenance window starts and ends (docs/service.md). */
export type MaintenanceCode = 'MAINT_ON' | 'MAINT_OFF';
/** Every code of the run log. */
export type RunLogCode = EventCode | PresenceCode | MaintenanceCode;

const state = (code: string, zh: string, en: string, ru: string): EventDef => ({ code, class: 'state', source: 'lift', text: localized(zh, en, ru) });
const fault = (code: string, zh: string, en: string, ru: string): EventDef => ({ ...state(code, zh, en, ru), class: 'fault' });
const presence = (code: PresenceCode, zh: string, en: string, ru: string): EventDef => ({ ...state(code, zh, en, ru), source: 'cloud' });
const cloud = (code: MaintenanceCode, zh: string, en: string, ru: string): EventDef => ({ ...state(code, zh, en, ru), source: 'cloud' });

const floors = (prefix: string, zh: (n: number) => string, en: (n: number) => string, ru: (n: number) => string) =>
  [1, 2, 3, 4].map((n) => state(`${prefix}${n}`, zh(n), en(n), ru(n)));

/** The deformations of RZB1..5 / RZF1..5, in code order. */
const SHAPE_TEXTS: [zh: string, en: string, ru: string][] = [
  ['折叠', 'fold', 'складывание'],
  ['展开（运行形态）', 'unfold to run form', 'раскладывание в рабочее положение'],
  ['左侧等待', 'wait left', 'ожидание слева'],
  ['右侧等待', 'wait right', 'ожидание справа'],
  ['双侧护栏升起', 'both guardrails up', 'подъём обоих ограждений'],
];
const shapes = (prefix: string, zh: string, en: string, ru: string) =>
  SHAPE_TEXTS.map(([z, e, r], i) => state(`${prefix}${i + 1}`, `${zh}${z}`, `${en}${e}`, `${ru}${r}`));

/** The one table of event codes. */
export const EVENT_TABLE: readonly EventDef[] = [
  state('RZOP', '上电开机', 'Power on', 'Включение питания'),
  state('RZOS', '锁定开启', 'Lockout on', 'Блокировка включена'),
  state('RZOs', '锁定解除', 'Lockout off', 'Блокировка снята'),
  state('RZOT', '进入调试模式', 'Debug mode entered', 'Включён режим отладки'),
  state('RZOJ', '禁用开启', 'Lift disabled', 'Лифт выведен из работы'),
  state('RZOj', '禁用解除', 'Lift re-enabled', 'Лифт снова введён в работу'),
  state('RZGU', '开始上行', 'Started moving up', 'Начало движения вверх'),
  state('RZGD', '开始下行', 'Started moving down', 'Начало движения вниз'),
  state('RZGS', '暂停运行', 'Paused', 'Движение приостановлено'),
  state('RZLB', '现场按钮操作', 'Button pressed on site', 'Нажата кнопка на месте'),
  state('RZLK', '现场键盘操作', 'Keypad used on site', 'Использована клавиатура на месте'),
  state('RZLM', '现场进入维护模式', 'Maintenance mode entered on site', 'Включён режим обслуживания на месте'),
  ...floors('RZM', (n) => `本地设置目标楼层${n}`, (n) => `Target floor ${n} set locally`, (n) => `Целевой этаж ${n} задан на месте`),
  ...floors('RZY', (n) => `云端指令设置目标楼层${n}`, (n) => `Target floor ${n} set by cloud command`, (n) => `Целевой этаж ${n} задан облачной командой`),
  ...floors('RZD', (n) => `到达${n}楼`, (n) => `Arrived at floor ${n}`, (n) => `Прибытие на этаж ${n}`),
  ...shapes('RZB', '开始变形：', 'Deformation started: ', 'Начало трансформации: '),
  ...shapes('RZF', '变形完成：', 'Deformation completed: ', 'Трансформация завершена: '),
  fault('EA', '冲顶（越过上限位）', 'Overshoot at the top', 'Проезд верхнего предела'),
  fault('EB', '蹲底（越过下限位）', 'Overshoot at the bottom', 'Проезд нижнего предела'),
  fault('EC', '电机堵转', 'Drive stalled', 'Остановка привода (заклинивание)'),
  fault('ED', '总线连接断开', 'Bus connection lost', 'Потеря связи по шине'),
  fault('EE', '滑块碰撞', 'Slider collision', 'Столкновение ползуна'),
  fault('EF', '配置丢失', 'Configuration lost', 'Потеря конфигурации'),
  presence('ONLINE', '设备上线', 'Device online', 'Устройство в сети'),
  presence('OFFLINE', '设备离线', 'Device offline', 'Устройство не в сети'),
  cloud('MAINT_ON', '维护时段开始（不发告警）', 'Maintenance window started (no alerts)', 'Начало окна обслуживания (без тревог)'),
  cloud('MAINT_OFF', '维护时段结束', 'Maintenance window ended', 'Конец окна обслуживания'),
];

/**
 * Why the cloud wrote ONLINE or OFFLINE, stored with the entry and shown after its meaning.
 * `online` tells which of the two codes the reason belongs to.
 */
export const PRESENCE_REASONS = {
  /** The lift connected and said it is online. */
  connected: { online: true, text: localized('已连接', 'connected', 'подключение') },
  /** A message arrived from a lift marked offline (after its silence, or before it said it is online). */
  messageReceived: { online: true, text: localized('收到设备消息', 'message received', 'получено сообщение') },
  /** The lift said goodbye before disconnecting. */
  cleanDisconnect: { online: false, text: localized('正常断开', 'clean disconnect', 'штатное отключение') },
  /** The connection died without a goodbye: the broker published the lift's will, or saw the socket close. */
  connectionLost: { online: false, text: localized('连接中断', 'connection lost', 'потеря связи') },
  /** Nothing heard from the lift for longer than the heartbeat window; the time is when it was last heard. */
  heartbeatSilence: { online: false, text: localized('超过心跳时限无消息', 'silent past the heartbeat', 'нет сообщений дольше интервала пульса') },
  /** Its IoT credentials were reset or reissued, which disconnects it. */
  credentialReset: { online: false, text: localized('设备凭据已重置', 'credentials reset', 'учётные данные сброшены') },
} as const satisfies Record<string, { online: boolean; text: LocalizedText }>;
export type PresenceReason = keyof typeof PRESENCE_REASONS;
export const PRESENCE_REASON_NAMES = Object.keys(PRESENCE_REASONS) as PresenceReason[];
export const presenceReasonSchema = z.enum(PRESENCE_REASON_NAMES as [PresenceReason, ...PresenceReason[]]);

/** The code of a presence transition with this reason. */
export function presenceCode(reason: PresenceReason): PresenceCode {
  return PRESENCE_REASONS[reason].online ? 'ONLINE' : 'OFFLINE';
}

/**
 * Local use of the lift (docs/remote-control.md, "Local controls win"): a call or button on
 * the platform or a landing, the keypad, maintenance mode entered at the controller (RZLM;
 * not RZOT, which a remote `test` logs too when it enters debug mode). Each ends the remote
 * control lease at once, and the lift refuses remote movement for LOCAL_SETTLE_MS.
 */
export const LOCAL_CONTROL_CODES: readonly EventCode[] = ['RZM1', 'RZM2', 'RZM3', 'RZM4', 'RZLB', 'RZLK', 'RZLM'];
export function isLocalControlCode(code: string): boolean {
  return (LOCAL_CONTROL_CODES as readonly string[]).includes(code);
}

const BY_CODE = new Map(EVENT_TABLE.map((e) => [e.code, e]));

/** Every code of the run log, in table order (the run-log filter offers these). */
export const EVENT_CODES = EVENT_TABLE.map((e) => e.code) as RunLogCode[];
/** The codes a lift may send on its `event` topic: every code but the cloud's own. */
export const DEVICE_EVENT_CODES = EVENT_TABLE.filter((e) => e.source === 'lift').map((e) => e.code) as EventCode[];
/** A code a lift may send (the `event` payload); ONLINE and OFFLINE are refused from a lift. */
export const eventCodeSchema = z.enum(DEVICE_EVENT_CODES as [EventCode, ...EventCode[]]);

export function isEventCode(code: string): code is RunLogCode {
  return BY_CODE.has(code);
}

export function isFault(code: string): boolean {
  return BY_CODE.get(code)?.class === 'fault';
}

/**
 * The meaning of a code in a language (zh-CN when the language is unknown); the code itself
 * when the code is unknown. A presence entry's reason follows in brackets:
 * "Device offline (silent past the heartbeat)".
 */
export function eventText(code: string, lang: string = DEFAULT_LANGUAGE, reason?: string | null): string {
  const def = BY_CODE.get(code);
  if (!def) return code;
  const text = pickText(def.text, lang);
  const why = reason && Object.hasOwn(PRESENCE_REASONS, reason) ? pickText(PRESENCE_REASONS[reason as PresenceReason].text, lang) : null;
  if (!why) return text;
  return lang === 'en-US' || lang === 'ru-RU' ? `${text} (${why})` : `${text}（${why}）`;
}

/** Codes with a floor number: the floor they name (RZM2 -> 2), else null. */
export function eventFloor(code: string): number | null {
  const m = /^RZ[MYD]([1-4])$/.exec(code);
  return m ? Number(m[1]) : null;
}
