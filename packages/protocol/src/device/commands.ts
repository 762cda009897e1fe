import { z } from 'zod';
import { DEFAULT_LANGUAGE } from '../constants.ts';
import { floorSchema } from './kinds.ts';
import { localized, pickText, type LocalizedText } from './texts.ts';

/**
 * The remote command vocabulary (spec section 4). Arguments are strict objects; a command
 * without arguments takes `{}`. Command labels in the web client: `command.<name>`,
 * argument values `command.<name>.<value>`.
 */
export const DEFORM_SHAPES = ['fold', 'unfold', 'leftFlap', 'rightFlap'] as const;
export type DeformShape = (typeof DEFORM_SHAPES)[number];
export const AGING_COMMAND_TARGETS = ['overall', 'pedals', 'leftGuardrail', 'rightGuardrail', 'stop'] as const;
export const TEST_ITEMS = [
  'communications',
  'pedalLock',
  'runningLights',
  'keyLights',
  'positionLearning',
  'upDownDetection',
  'channelConfig',
] as const;
export type TestItem = (typeof TEST_ITEMS)[number];

const noArgs = z.strictObject({});
const toggle = z.strictObject({ on: z.boolean() });

export const COMMAND_ARGS = {
  summon: z.strictObject({ floor: floorSchema }),
  pause: noArgs,
  restart: noArgs,
  deform: z.strictObject({ shape: z.enum(DEFORM_SHAPES) }),
  aging: z.strictObject({ target: z.enum(AGING_COMMAND_TARGETS) }),
  test: z.strictObject({ item: z.enum(TEST_ITEMS) }),
  lock: toggle,
  disable: toggle,
} as const;

export type CommandName = keyof typeof COMMAND_ARGS;
export const COMMAND_NAMES = Object.keys(COMMAND_ARGS) as CommandName[];
export const commandNameSchema = z.enum(COMMAND_NAMES as [CommandName, ...CommandName[]]);

const variant = <K extends CommandName>(name: K) => z.strictObject({ name: z.literal(name), args: COMMAND_ARGS[name] });

/** `{name, args}` of any command; floor bounds of the lift are checked by `liftCommandSchema`. */
export const commandSchema = z.discriminatedUnion('name', [
  variant('summon'),
  variant('pause'),
  variant('restart'),
  variant('deform'),
  variant('aging'),
  variant('test'),
  variant('lock'),
  variant('disable'),
]);
export type Command = z.infer<typeof commandSchema>;
export type CommandArgs<K extends CommandName> = z.infer<(typeof COMMAND_ARGS)[K]>;

/** `commandSchema` plus the lift's own floor count: `summon` to floor 3 of a 2-floor lift is refused. */
export function liftCommandSchema(floors: number) {
  return commandSchema.superRefine((cmd, ctx) => {
    if (cmd.name === 'summon' && cmd.args.floor > floors) {
      ctx.addIssue({ code: 'custom', path: ['args', 'floor'], message: 'validation.max', params: { max: floors } });
    }
  });
}

/** Validates a summon floor against the lift's floor count. */
export function isValidSummonFloor(floor: unknown, floors: number): floor is number {
  return floorSchema.safeParse(floor).success && (floor as number) <= floors;
}

/**
 * Movement commands make something on the lift move. The web client asks for a
 * confirmation before sending one, and the server never queues one for an offline lift:
 * it fails at once. `aging {target: stop}` and the tests that do not travel are not movement.
 */
export const MOVEMENT_COMMANDS: readonly CommandName[] = ['summon', 'restart', 'deform', 'aging'];
const MOVING_TESTS: readonly TestItem[] = ['positionLearning', 'upDownDetection'];

export function isMovementCommand(cmd: Command): boolean {
  if (cmd.name === 'aging') return cmd.args.target !== 'stop';
  if (cmd.name === 'test') return MOVING_TESTS.includes(cmd.args.item);
  return MOVEMENT_COMMANDS.includes(cmd.name);
}

/**
 * Command lifecycle. `created` and `sent` are the cloud's; the lift answers `accepted` or
 * `rejected`, then `done` or `failed`. `timeout`: the lift did not answer in time;
 * `expired`: the command's `expiresAt` passed before the lift could take it; `cancelled`: its
 * sender cancelled it in the cancel window, before it was sent (docs/remote-control.md).
 */
export const COMMAND_STATES = ['created', 'sent', 'accepted', 'rejected', 'done', 'failed', 'timeout', 'expired', 'cancelled'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
export const commandStateSchema = z.enum(COMMAND_STATES);
export const FINAL_COMMAND_STATES: readonly CommandState[] = ['rejected', 'done', 'failed', 'timeout', 'expired', 'cancelled'];

export function isFinalCommandState(state: CommandState): boolean {
  return FINAL_COMMAND_STATES.includes(state);
}

/**
 * Why a lift refused or failed a command (`offline` and `timeout` are set by the cloud).
 * The texts are here because the server returns the reason in the caller's language.
 */
export const REFUSAL_REASONS = {
  overloaded: localized('超载，请减轻负载', 'The platform is overloaded', 'Платформа перегружена'),
  emergencyStop: localized('急停已按下', 'The emergency stop is active', 'Нажата аварийная остановка'),
  lockout: localized('设备处于锁定状态', 'The lift is locked out', 'Лифт заблокирован'),
  disabled: localized('设备已禁用', 'The lift is disabled', 'Лифт выведен из работы'),
  flapNotInPlace: localized('翻板不到位', 'A flap is not in place', 'Откидная аппарель не на месте'),
  busy: localized('设备正忙，请稍后再试', 'The lift is busy with another operation', 'Лифт занят другой операцией'),
  expired: localized('指令已过期', 'The command expired before it reached the lift', 'Срок действия команды истёк'),
  badArgs: localized('指令参数无效', 'The command arguments are not valid', 'Недопустимые параметры команды'),
  fault: localized('设备存在故障', 'The lift has an active fault', 'У лифта активная неисправность'),
  lowBattery: localized('电池电量过低', 'The battery is too low', 'Слишком низкий заряд батареи'),
  debugMode: localized('设备处于调试模式', 'The lift is in debug mode', 'Лифт в режиме отладки'),
  controlDisabled: localized('远程控制未启用', 'Remote control is not enabled on the lift', 'Удалённое управление на лифте выключено'),
  unsupported: localized('该设备不支持此操作', 'This lift does not support the operation', 'Лифт не поддерживает эту операцию'),
  interrupted: localized('运行被中断', 'The operation was interrupted', 'Операция прервана'),
  configInvalid: localized('配置无效', 'The configuration is not valid', 'Недопустимая конфигурация'),
  versionConflict: localized('配置已被修改，请重新读取', 'The configuration changed meanwhile; read it again', 'Конфигурация изменилась; прочитайте её заново'),
  offline: localized('设备离线', 'The lift is offline', 'Лифт не в сети'),
  timeout: localized('设备未及时响应', 'The lift did not answer in time', 'Лифт не ответил вовремя'),
  // Safe remote control (device/control.ts): the lift and the cloud refuse with these.
  leaseHeld: localized('另一位用户正在控制此设备', 'Another user controls this lift', 'Лифтом управляет другой пользователь'),
  noLease: localized('尚未获取此设备的控制权', 'You do not have control of this lift', 'У вас нет управления этим лифтом'),
  localControl: localized('设备正在现场操作，远程控制已暂停', 'The lift is in use on site; remote control is paused', 'Лифтом пользуются на месте; удалённое управление приостановлено'),
  approvalRequired: localized('此类指令需要另一位用户批准', 'This kind of command needs another user\'s approval', 'Для такой команды нужно одобрение другого пользователя'),
  cancelled: localized('指令已取消', 'The command was cancelled', 'Команда отменена'),
} satisfies Record<string, LocalizedText>;

export type RefusalReason = keyof typeof REFUSAL_REASONS;
export const REFUSAL_REASON_CODES = Object.keys(REFUSAL_REASONS) as RefusalReason[];
export const refusalReasonSchema = z.enum(REFUSAL_REASON_CODES as [RefusalReason, ...RefusalReason[]]);

/** The text of a refusal reason (zh-CN when the language is unknown; the code itself when the reason is unknown). */
export function refusalText(reason: string, lang: string = DEFAULT_LANGUAGE): string {
  const text = (REFUSAL_REASONS as Record<string, LocalizedText | undefined>)[reason];
  return text ? pickText(text, lang) : reason;
}
