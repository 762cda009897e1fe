import { z } from 'zod';
import type { Command } from './commands.ts';
import { localized, pickText, type LocalizedText } from './texts.ts';

/**
 * Safe remote control (docs/remote-control.md): one controller at a time, local controls
 * win, two-person approval for the hazardous classes, no replays. The rules are data here so
 * the server, the simulated lift and the web client apply the same ones.
 */

/**
 * Every command belongs to one class. `stop` (pause, aging stop) is always open to anyone
 * allowed to control the lift; `setting` (lock, disable) changes no position and needs no
 * lease; every other class needs the lift's control lease.
 */
export const COMMAND_CLASSES = ['stop', 'setting', 'movement', 'deformation', 'aging', 'selfLearning', 'test'] as const;
export type CommandClass = (typeof COMMAND_CLASSES)[number];
export const commandClassSchema = z.enum(COMMAND_CLASSES);

export function commandClass(cmd: Pick<Command, 'name' | 'args'>): CommandClass {
  const args = cmd.args as Record<string, unknown>;
  switch (cmd.name) {
    case 'pause':
      return 'stop';
    case 'lock':
    case 'disable':
      return 'setting';
    case 'summon':
    case 'restart':
      return 'movement';
    case 'deform':
      return 'deformation';
    case 'aging':
      return args.target === 'stop' ? 'stop' : 'aging';
    case 'test':
      return args.item === 'positionLearning' ? 'selfLearning' : 'test';
  }
}

/** The classes that need the remote-control lease (the lift checks it too). */
export const LEASED_CLASSES: readonly CommandClass[] = ['movement', 'deformation', 'aging', 'selfLearning', 'test'];
export function needsLease(cmd: Pick<Command, 'name' | 'args'>): boolean {
  return LEASED_CLASSES.includes(commandClass(cmd));
}

/** The classes an organization may put under two-person approval, and those it has until it chooses. */
export const APPROVABLE_CLASSES: readonly CommandClass[] = LEASED_CLASSES;
export const DEFAULT_APPROVAL_CLASSES: readonly CommandClass[] = ['aging', 'deformation', 'selfLearning'];
export const approvalClassesSchema = z
  .array(commandClassSchema.refine((c) => APPROVABLE_CLASSES.includes(c), 'validation.invalid'))
  .max(APPROVABLE_CLASSES.length)
  .transform((list) => [...new Set(list)]);

/** How long a lease lasts without renewal; the holder's page renews it every CONTROL_LEASE_RENEW_MS. */
export const CONTROL_LEASE_MS = 60_000;
export const CONTROL_LEASE_RENEW_MS = 20_000;
/** After local use the lift refuses remote movement this long, and a new lease cannot be taken. */
export const LOCAL_SETTLE_MS = 30_000;
/**
 * Movement-class commands wait this long in the cloud before they are sent, so a wrong click
 * can be cancelled before the lift ever hears of it (a command is never cancelled once sent).
 */
export const COMMAND_CANCEL_WINDOW_MS = 3_000;
/** How long a request for approval waits for a second person. */
export const APPROVAL_WINDOW_MS = 10 * 60_000;

/**
 * The lease as a command carries it to the lift: `epoch` grows by one with every lease
 * granted on the lift (a fencing token), `holder` is the user's display name. The lift
 * remembers the highest epoch it has seen and refuses a command of an older one
 * (`leaseHeld`): after a take-over, a late command of the previous holder cannot run.
 */
export const commandLeaseSchema = z.strictObject({
  epoch: z.number().int().positive().max(2_147_483_647),
  holder: z.string().min(1).max(64),
});
export type CommandLease = z.infer<typeof commandLeaseSchema>;

/** An idempotency key as the browser makes it (one per click, reused by every retry of that click). */
export const idempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'validation.invalid');

/**
 * What a user should do next after each refusal: shown under the reason on the page.
 * Reasons without advice (a lift fault, say) are shown alone.
 */
export const REFUSAL_ADVICE: Record<string, LocalizedText> = {
  leaseHeld: localized('请等待对方释放控制权；如有权限，可接管控制。', 'Wait until they release control, or take over if you are allowed to.', 'Дождитесь, пока управление освободят, или перехватите его, если вам разрешено.'),
  noLease: localized('请先获取此设备的远程控制权。', 'Take control of this lift first.', 'Сначала возьмите управление этим лифтом.'),
  localControl: localized('现场有人正在操作设备。请与现场人员确认后，再重新获取控制权。', 'Someone is using the lift on site. Check with them, then take control again.', 'Лифтом пользуются на месте. Согласуйте с ними и затем снова возьмите управление.'),
  approvalRequired: localized('请填写理由并申请审批，由另一位有权限的用户批准后执行。', 'Request approval with a reason; it runs once another authorized user approves.', 'Запросите одобрение с указанием причины; команда выполнится после одобрения другим пользователем.'),
  cancelled: localized('指令未发送到设备。', 'The command never reached the lift.', 'Команда не была отправлена лифту.'),
  overloaded: localized('请减轻平台负载后重试。', 'Reduce the load on the platform and try again.', 'Уменьшите нагрузку на платформу и повторите.'),
  emergencyStop: localized('请在现场确认安全后复位急停。', 'Make it safe on site and reset the emergency stop.', 'Убедитесь на месте в безопасности и сбросьте аварийную остановку.'),
  lockout: localized('请先解除锁定。', 'Unlock the lift first.', 'Сначала разблокируйте лифт.'),
  disabled: localized('请先将设备重新投入使用。', 'Put the lift back into service first.', 'Сначала введите лифт в работу.'),
  flapNotInPlace: localized('请检查翻板是否到位。', 'Check that the flaps are in place.', 'Проверьте положение откидных аппарелей.'),
  busy: localized('请等待当前操作完成后重试。', 'Wait until the current operation ends, then try again.', 'Дождитесь окончания текущей операции и повторите.'),
  expired: localized('请检查网络后重新发送。', 'Check the connection and send it again.', 'Проверьте связь и отправьте снова.'),
  fault: localized('请先排除故障。', 'Clear the fault first.', 'Сначала устраните неисправность.'),
  lowBattery: localized('请先为设备充电。', 'Charge the lift first.', 'Сначала зарядите лифт.'),
  debugMode: localized('请先退出调试模式。', 'Leave debug mode first.', 'Сначала выйдите из режима отладки.'),
  controlDisabled: localized('请在设备上启用远程控制。', 'Enable remote control on the lift.', 'Включите удалённое управление на лифте.'),
  offline: localized('请等待设备重新上线。', 'Wait until the lift is online again.', 'Дождитесь, пока лифт снова будет в сети.'),
  timeout: localized('请查看设备状态后再试。', 'Check the lift\'s state before trying again.', 'Проверьте состояние лифта, прежде чем повторять.'),
};

/** The advice after a refusal in `lang`, or null when there is none. */
export function refusalAdvice(reason: string, lang: string): string | null {
  const text = REFUSAL_ADVICE[reason];
  return text ? pickText(text, lang) : null;
}
