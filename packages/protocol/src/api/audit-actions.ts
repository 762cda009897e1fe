import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../constants.ts';
import { REFUSAL_REASONS } from '../device/commands.ts';
import { localized, pickText, type LocalizedText } from '../device/texts.ts';
import { INCIDENT_STATE_TEXTS } from './incidents.ts';

/**
 * Every action the server audits, as data: its name, the keys of its detail, and a
 * readable summary of that detail in zh-CN, en-US and ru-RU. The server can only audit an
 * action of this table (`AuditAction`); the operation log page and the CSV export both
 * render names and summaries with the functions below, so they use the same words.
 *
 * A summary is a template: `{key}` takes the detail's value of that key, or a value that
 * `values` derives from the detail in the reader's language. An action with several
 * wordings names them in `summary` and picks one with `variant`. A `reason` or `code` in
 * the detail (why it was refused or failed) is added to the summary in words.
 */
export type AuditDetail = Record<string, unknown>;
type Values = Record<string, string | number>;

export interface AuditActionDef {
  name: LocalizedText;
  /** The keys its detail may hold. */
  fields: readonly string[];
  /** Summary templates by variant; `default` is used unless `variant` says otherwise. */
  summary: { default: LocalizedText } & Record<string, LocalizedText>;
  variant?: (detail: AuditDetail) => string;
  values?: (detail: AuditDetail, lang: Language) => Values;
  /** True for actions on a lift: the operation log lists only these. */
  lift?: boolean;
  /** Details as the server writes them, one per variant at least (the tests render each). */
  examples: readonly AuditDetail[];
}

const str = (v: unknown): string => (v == null || v === '' ? '—' : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));
const obj = (v: unknown): AuditDetail => (v && typeof v === 'object' && !Array.isArray(v) ? (v as AuditDetail) : {});
/** The key's text from a table in `lang`; the key itself when the table does not name it. */
const word = (table: Record<string, LocalizedText>, key: unknown, lang: string): string => {
  const text = table[String(key)];
  return text ? pickText(text, lang) : str(key);
};

/** A command with its arguments in words (as on the lift page: "Summon to floor 2"). */
const COMMAND_TEXTS: Record<string, LocalizedText> = {
  summon: localized('召唤到 {floor} 楼', 'Summon to floor {floor}', 'Вызвать на этаж {floor}'),
  pause: localized('暂停', 'Pause', 'Пауза'),
  restart: localized('重新启动', 'Restart', 'Перезапуск'),
  'deform.fold': localized('折叠', 'Fold', 'Сложить'),
  'deform.unfold': localized('展开', 'Unfold', 'Разложить'),
  'deform.leftFlap': localized('左翻板', 'Left flap', 'Левая аппарель'),
  'deform.rightFlap': localized('右翻板', 'Right flap', 'Правая аппарель'),
  'aging.overall': localized('整体老化', 'Overall aging', 'Общий прогон'),
  'aging.pedals': localized('踏板老化', 'Pedal aging', 'Прогон педали'),
  'aging.leftGuardrail': localized('左护栏老化', 'Left guardrail aging', 'Прогон левого ограждения'),
  'aging.rightGuardrail': localized('右护栏老化', 'Right guardrail aging', 'Прогон правого ограждения'),
  'aging.stop': localized('停止老化', 'Stop aging', 'Остановить прогон'),
  'test.communications': localized('通信测试', 'Communications test', 'Тест связи'),
  'test.pedalLock': localized('踏板锁测试', 'Pedal lock test', 'Тест фиксатора педали'),
  'test.runningLights': localized('运行灯测试', 'Running lights test', 'Тест ходовых огней'),
  'test.keyLights': localized('按键灯测试', 'Key lights test', 'Тест подсветки кнопок'),
  'test.positionLearning': localized('位置自学习', 'Position self-learning', 'Самообучение положений'),
  'test.upDownDetection': localized('上下行检测', 'Up and down detection', 'Проверка вверх-вниз'),
  'test.channelConfig': localized('通道配置', 'Channel configuration', 'Настройка каналов'),
  'lock.on': localized('锁定', 'Lock', 'Заблокировать'),
  'lock.off': localized('解除锁定', 'Unlock', 'Разблокировать'),
  'disable.on': localized('禁用', 'Disable', 'Вывести из работы'),
  'disable.off': localized('解除禁用', 'Enable', 'Ввести в работу'),
};

/** The text of a command and its arguments; the name itself for a command this table does not know. */
export function commandText(name: string, args: AuditDetail, lang: string): string {
  const l = languageOf(lang);
  const key = name === 'deform' ? `deform.${str(args.shape)}` : name === 'aging' ? `aging.${str(args.target)}` : name === 'test' ? `test.${str(args.item)}` : name === 'lock' || name === 'disable' ? `${name}.${args.on ? 'on' : 'off'}` : name;
  return COMMAND_TEXTS[key] ? fillTemplate(word(COMMAND_TEXTS, key, l), { floor: str(args.floor) }) : name;
}

/** Why an action was refused or failed: the lift's refusal reasons, and the cloud's own. */
const REASONS: Record<string, LocalizedText> = {
  ...REFUSAL_REASONS,
  sendFailed: localized('指令发送失败', 'The command could not be sent', 'Не удалось отправить команду'),
  badCaptcha: localized('验证码错误', 'Wrong verification code', 'Неверный код подтверждения'),
  badCredentials: localized('用户名或密码错误', 'Wrong username or password', 'Неверное имя пользователя или пароль'),
  frozen: localized('账户已冻结', 'The account is frozen', 'Учётная запись заморожена'),
  pending: localized('账户尚未激活', 'The account is not activated yet', 'Учётная запись ещё не активирована'),
  oldPasswordWrong: localized('原密码错误', 'The old password is wrong', 'Неверный старый пароль'),
  inviteInvalid: localized('邀请码无效', 'The invite code is not valid', 'Код приглашения недействителен'),
  'user.hasOrganization': localized('账户已属于某个组织', 'The account already belongs to an organization', 'Учётная запись уже состоит в организации'),
  'validation.failed': localized('数据无效', 'The data is not valid', 'Недопустимые данные'),
  forbidden: localized('没有权限', 'No permission', 'Нет прав'),
  'lift.notFound': localized('设备不存在', 'The lift was not found', 'Лифт не найден'),
  'lift.noDeviceNo': localized('设备未分配设备号', 'The lift has no device number', 'У лифта нет номера устройства'),
  'lift.registered': localized('设备已注册，请检查后重试', 'The device is registered already', 'Устройство уже зарегистрировано'),
  'lift.mismatch': localized('设备不匹配', 'The device does not match', 'Устройство не совпадает'),
  'lift.offline': localized('设备离线', 'The lift is offline', 'Лифт не в сети'),
  'lift.timeout': localized('设备未及时响应', 'The lift did not answer in time', 'Лифт не ответил вовремя'),
  'lift.refused': localized('设备拒绝了指令', 'The lift refused the command', 'Лифт отклонил команду'),
  'lift.sendFailed': localized('指令发送失败', 'The command could not be sent', 'Не удалось отправить команду'),
  'lease.held': localized('另一位用户正在控制此设备', 'Another user controls this lift', 'Лифтом управляет другой пользователь'),
  'lease.lost': localized('已失去此设备的控制权', 'Control of the lift was lost', 'Управление лифтом потеряно'),
  'lease.localControl': localized('设备正在现场操作', 'The lift is in use on site', 'Лифтом пользуются на месте'),
  'command.cancelTooLate': localized('指令已发送，无法取消', 'Sent already, too late to cancel', 'Уже отправлена, отменить нельзя'),
  'approval.required': localized('需要另一位用户批准', 'Needs another user\'s approval', 'Нужно одобрение другого пользователя'),
  'approval.closed': localized('审批申请已处理、撤回或过期', 'The request was decided, withdrawn or expired already', 'Запрос уже решён, отозван или истёк'),
  'approval.ownRequest': localized('不能批准自己的申请', 'Nobody may approve their own request', 'Нельзя одобрить собственный запрос'),
  'incident.transition': localized('事件不能从当前状态转到该状态', 'Not allowed from the incident\'s current state', 'Недопустимо из текущего состояния инцидента'),
  'incident.needsAssignee': localized('需要先指派技术员', 'A technician must be assigned first', 'Сначала нужно назначить техника'),
  'incident.assignee': localized('该用户不能被指派处理此设备的事件', 'This user may not be assigned to this lift\'s incidents', 'Этого пользователя нельзя назначить на инциденты этого лифта'),
  'escalation.notCandidate': localized('值班名单和负责人只能是本组织可处理事件的在用成员', 'Only active members of the organization who may work on incidents can be on call or manager', 'Дежурными и руководителем могут быть только активные сотрудники организации с доступом к инцидентам'),
  'config.reconfigure': localized('设备已配置，需确认重新配置', 'Already configured: reconfiguring needs a confirmation', 'Уже настроено: перенастройку нужно подтвердить'),
  'config.versionConflict': localized('配置已被修改，请重新读取', 'The configuration changed meanwhile', 'Конфигурация изменилась тем временем'),
  'config.invalid': localized('配置无效', 'The configuration is not valid', 'Недопустимая конфигурация'),
  internal: localized('服务器内部错误', 'Internal server error', 'Внутренняя ошибка сервера'),
  // What the controller or the serial link answered to a bench step.
  badRequest: localized('控制器无法识别请求', 'The controller did not understand the request', 'Контроллер не понял запрос'),
  unknownCommand: localized('控制器不支持该指令', 'The controller does not know this command', 'Контроллер не знает эту команду'),
  noDeviceNo: localized('控制器尚未写入设备号', 'The controller has no device number yet', 'У контроллера ещё нет номера устройства'),
  mismatch: localized('设备不匹配', 'The device does not match', 'Устройство не совпадает'),
  storage: localized('控制器保存失败', 'The controller could not save', 'Контроллер не смог сохранить'),
  closed: localized('串口已关闭', 'The serial port closed', 'Последовательный порт закрыт'),
  unreachable: localized('串口助手未运行', 'The serial bridge is not running', 'Мост последовательного порта не запущен'),
  openFailed: localized('串口无法打开', 'The serial port could not be opened', 'Не удалось открыть последовательный порт'),
  notOpen: localized('串口未打开', 'The serial port is not open', 'Последовательный порт не открыт'),
  // Why a sign-in with another provider (OpenID Connect) was refused.
  stateInvalid: localized('登录请求无效或已使用', 'The sign-in request was invalid or used already', 'Запрос входа недействителен или уже использован'),
  providerRefused: localized('身份提供方拒绝了登录', 'The provider refused the sign-in', 'Провайдер отклонил вход'),
  providerFailed: localized('身份提供方的应答无效', 'The provider\'s answer was not valid', 'Ответ провайдера недействителен'),
  providerUnavailable: localized('身份提供方不可用', 'The provider could not be reached', 'Провайдер недоступен'),
  emailNotVerified: localized('邮箱未经身份提供方验证', 'The provider has not verified the e-mail address', 'Провайдер не подтвердил адрес почты'),
  domainNotMapped: localized('该邮箱域名未获准登录', 'The e-mail domain is not admitted', 'Домен почты не допущен'),
  localAccountExists: localized('该邮箱已属于本地账户', 'A local account has this e-mail address', 'Этот адрес почты уже у локальной учётной записи'),
  notConfigured: localized('域名映射的组织或角色不存在', 'The mapped organization or role does not exist', 'Назначенной организации или роли нет'),
  unknown: localized('未知错误', 'Unknown error', 'Неизвестная ошибка'),
};

/** The reason in words; the code itself when it is not one we name. */
export function auditReasonText(reason: string, lang: string): string {
  return word(REASONS, reason, lang);
}

/** Results of audited actions: ok, denied, failed, and a command's final state. */
const RESULTS: Record<string, LocalizedText> = {
  ok: localized('成功', 'Done', 'Выполнено'),
  denied: localized('无权限', 'Denied', 'Запрещено'),
  failed: localized('失败', 'Failed', 'Не выполнено'),
  created: localized('已创建', 'Created', 'Создана'),
  sent: localized('已发送', 'Sent', 'Отправлена'),
  accepted: localized('设备已接受', 'Accepted by the lift', 'Принята лифтом'),
  rejected: localized('被拒绝', 'Refused', 'Отклонена'),
  done: localized('已完成', 'Done', 'Выполнена'),
  timeout: localized('超时', 'Timed out', 'Нет ответа'),
  expired: localized('已过期', 'Expired', 'Истекла'),
  cancelled: localized('已取消', 'Cancelled', 'Отменена'),
};

export function auditResultText(result: string, lang: string): string {
  return word(RESULTS, result, lang);
}

const METHODS: Record<string, LocalizedText> = {
  password: localized('密码', 'password', 'пароль'),
  mobile: localized('手机验证码', 'mobile code', 'код по SMS'),
  oidc: localized('其他身份提供方', 'another provider', 'другой провайдер'),
};
const PARITY: Record<string, LocalizedText> = {
  none: localized('无', 'none', 'нет'),
  even: localized('偶校验', 'even', 'чёт'),
  odd: localized('奇校验', 'odd', 'нечёт'),
};
const USER_FIELDS: Record<string, LocalizedText> = {
  name: localized('姓名', 'name', 'имя'),
  email: localized('邮箱', 'email', 'почта'),
  mobile: localized('手机号', 'mobile', 'телефон'),
  roleId: localized('角色', 'role', 'роль'),
  orgId: localized('组织', 'organization', 'организация'),
  language: localized('语言', 'language', 'язык'),
  twoStep: localized('两步验证', 'two-step sign-in', 'двухэтапный вход'),
};
const LIST_SEPARATOR: LocalizedText = localized('、', ', ', ', ');

/** How a logbook's chain is broken at an entry (LOGBOOK_PROBLEMS), as the verify summary says it. */
const LOGBOOK_PROBLEM_TEXTS: Record<string, LocalizedText> = {
  altered: localized('已被修改', 'was altered', 'изменена'),
  unlinked: localized('与前一条不衔接', 'does not follow the one before', 'не продолжает предыдущую'),
  missing: localized('缺失', 'is missing', 'отсутствует'),
};
const ROWS = localized('导出 {rows} 行', '{rows} rows exported', 'Выгружено строк: {rows}');
const SESSIONS_ENDED = localized('结束 {sessionsEnded} 个会话', 'Sessions ended: {sessionsEnded}', 'Завершено сеансов: {sessionsEnded}');
const BEFORE_AFTER = localized('{before} → {after}', '{before} → {after}', '{before} → {after}');
const NAMED = (zh: string, en: string, ru: string) => localized(`${zh} {name}`, `${en} {name}`, `${ru} {name}`);
const nameOf = (d: AuditDetail): Values => ({ name: str(obj(d.after).name ?? obj(d.before).name) });
const configVersion = (d: AuditDetail): Values => ({ version: str(obj(d.args).version) });
const withCode = (...fields: string[]) => [...fields, 'code'] as const;
/** What the bench page reports of every serial step (`POST /manufacture/lift/serial/log`). */
const serialFields = (...fields: string[]) => ['deviceNo', ...fields, 'code', 'truncated'] as const;
const SERIAL_FAILED = localized('未完成', 'Not completed', 'Не выполнено');
const COMMAND_FIELDS = ['name', 'args', 'reason'] as const;
/** A command in an audit detail of the remote-control actions; `approval` when it ran after a second person approved it. */
const CONTROL_COMMAND_FIELDS = ['name', 'args', 'reason', 'approval', 'lease'] as const;
const commandOf = (d: AuditDetail, l: Language): Values => ({ command: commandText(str(d.name), obj(d.args), l) });
const IOT_FIELDS = ['mode', 'kind', 'floors', 'firmware', 'controllerSerial', 'code'] as const;
const iotExample = { mode: 'assign', kind: 'inclinedStraightRack', floors: 2, firmware: '1.2.0', controllerSerial: 'C0FFEE01' };
const def = (d: AuditActionDef): AuditActionDef => d;
/** An invite code in an audit detail: its prefix, organization and role (never the code). */
const INVITE_FIELDS = ['prefix', 'orgId', 'orgName', 'roleId', 'roleName', 'maxUses', 'days'] as const;
const inviteOf = (i: AuditDetail): Values => ({ prefix: str(i.prefix), orgName: str(i.orgName), roleName: str(i.roleName) });

export const AUDIT_ACTIONS = {
  'auth.login': def({
    name: localized('登录', 'Sign-in', 'Вход'),
    fields: ['method', 'reason', 'provider', 'code'],
    summary: {
      default: localized('方式：{method}', 'With {method}', 'Способ: {method}'),
      provider: localized('方式：{method} {provider}', 'With {method} {provider}', 'Способ: {method} {provider}'),
      refused: localized('拒绝登录', 'Sign-in refused', 'Вход отклонён'),
    },
    variant: (d) => (d.provider ? 'provider' : d.method ? 'default' : 'refused'),
    values: (d, l) => ({ method: word(METHODS, d.method, l) }),
    examples: [{ method: 'password' }, { method: 'mobile', reason: 'badCaptcha' }, { reason: 'frozen' }, { method: 'oidc', provider: 'corp' }, { method: 'oidc', provider: 'corp', reason: 'domainNotMapped' }],
  }),
  'auth.logout': def({ name: localized('退出登录', 'Sign-out', 'Выход'), fields: [], summary: { default: localized('本次会话已结束', 'This session ended', 'Сеанс завершён') }, examples: [{}] }),
  'auth.passwordChange': def({
    name: localized('修改密码', 'Password change', 'Смена пароля'),
    fields: ['reason', 'otherSessionsEnded'],
    summary: { default: localized('其他 {otherSessionsEnded} 个会话已结束', 'Other sessions ended: {otherSessionsEnded}', 'Завершено других сеансов: {otherSessionsEnded}'), refused: localized('密码未修改', 'Password not changed', 'Пароль не изменён') },
    variant: (d) => (d.reason ? 'refused' : 'default'),
    examples: [{ otherSessionsEnded: 2 }, { reason: 'oldPasswordWrong' }],
  }),
  'auth.register': def({
    name: localized('注册', 'Registration', 'Регистрация'),
    fields: ['invite'],
    summary: {
      default: localized('新账户待激活', 'New account awaiting activation', 'Новая учётная запись ждёт активации'),
      invite: localized('新账户待激活，邀请码 {prefix}… 加入 {orgName}（{roleName}）', 'New account awaiting activation, joins {orgName} as {roleName} with code {prefix}…', 'Новая учётная запись ждёт активации, код {prefix}…: {orgName}, роль {roleName}'),
    },
    variant: (d) => (d.invite ? 'invite' : 'default'),
    values: (d) => inviteOf(obj(d.invite)),
    examples: [{}, { invite: { id: 'i1', prefix: 'K7QM', orgId: 'o1', orgName: 'Metro', roleId: 'r1', roleName: 'operator' } }],
  }),
  'auth.activate': def({ name: localized('激活账户', 'Account activation', 'Активация учётной записи'), fields: [], summary: { default: localized('账户已激活', 'Account activated', 'Учётная запись активирована') }, examples: [{}] }),
  'auth.resetRequested': def({ name: localized('申请重置密码', 'Password reset request', 'Запрос сброса пароля'), fields: [], summary: { default: localized('已发送重置密码链接', 'A reset link was sent', 'Отправлена ссылка для сброса') }, examples: [{}] }),
  'auth.passwordReset': def({ name: localized('重置密码', 'Password reset', 'Сброс пароля'), fields: [], summary: { default: localized('已通过链接设置新密码', 'A new password was set by link', 'Новый пароль задан по ссылке') }, examples: [{}] }),
  'auth.oidcAccountCreated': def({
    name: localized('通过身份提供方创建账户', 'Account created by provider sign-in', 'Учётная запись создана входом через провайдера'),
    fields: ['provider', 'organization', 'role'],
    summary: { default: localized('身份提供方 {provider}：组织 {organization}，角色 {role}', 'Provider {provider}: organization {organization}, role {role}', 'Провайдер {provider}: организация {organization}, роль {role}') },
    examples: [{ provider: 'corp', organization: 'Acme Operators', role: 'operator' }],
  }),
  'auth.sessionRevoke': def({ name: localized('结束会话', 'Session ended', 'Завершение сеанса'), fields: [], summary: { default: localized('已结束另一个会话', 'Another session was ended', 'Завершён другой сеанс') }, examples: [{}] }),
  'access.denied': def({
    name: localized('拒绝访问', 'Access denied', 'Доступ запрещён'),
    fields: ['method', 'url', 'needs'],
    summary: { default: localized('{method} {url} 需要权限 {needs}', '{method} {url} needs {needs}', '{method} {url} требует права {needs}') },
    examples: [{ method: 'POST', url: '/auth/access/system/users/create', needs: 'user.add' }],
  }),
  'operationLog.export': def({ name: localized('导出操作日志', 'Operation log export', 'Экспорт журнала операций'), fields: ['rows'], summary: { default: ROWS }, examples: [{ rows: 12 }] }),
  'lift.command': def({
    name: localized('远程指令', 'Remote command', 'Удалённая команда'),
    fields: CONTROL_COMMAND_FIELDS,
    summary: {
      default: localized('{command}', '{command}', '{command}'),
      approved: localized('{command}（{requester} 申请，{approver} 批准）', '{command} (requested by {requester}, approved by {approver})', '{command} (запросил {requester}, одобрил {approver})'),
    },
    variant: (d) => (d.approval ? 'approved' : 'default'),
    values: (d, l) => ({ ...commandOf(d, l), requester: str(obj(d.approval).requester), approver: str(obj(d.approval).approver) }),
    lift: true,
    examples: [
      { name: 'summon', args: { floor: 2 }, reason: null, lease: 3 },
      { name: 'lock', args: { on: true }, reason: 'offline' },
      { name: 'aging', args: { target: 'overall' }, reason: null, lease: 4, approval: { id: 'a1', requester: 'anna', approver: 'boris' } },
      { name: 'summon', args: { floor: 1 }, reason: 'cancelled', lease: 5 },
    ],
  }),
  'lift.leaseTake': def({
    name: localized('获取远程控制权', 'Remote control taken', 'Взято удалённое управление'),
    fields: ['epoch', 'takenOverFrom', 'reason'],
    summary: {
      default: localized('第 {epoch} 次控制权', 'Lease {epoch}', 'Управление № {epoch}'),
      takeOver: localized('第 {epoch} 次控制权，从 {takenOverFrom} 接管', 'Lease {epoch}, taken over from {takenOverFrom}', 'Управление № {epoch}, перехвачено у {takenOverFrom}'),
      refused: localized('未能获取控制权', 'Remote control not taken', 'Управление не взято'),
    },
    variant: (d) => (d.reason ? 'refused' : d.takenOverFrom ? 'takeOver' : 'default'),
    lift: true,
    examples: [{ epoch: 3 }, { epoch: 4, takenOverFrom: 'anna' }, { reason: 'leaseHeld' }, { reason: 'localControl' }],
  }),
  'lift.leaseRelease': def({
    name: localized('释放远程控制权', 'Remote control released', 'Удалённое управление освобождено'),
    fields: ['epoch'],
    summary: { default: localized('第 {epoch} 次控制权', 'Lease {epoch}', 'Управление № {epoch}') },
    lift: true,
    examples: [{ epoch: 3 }],
  }),
  'lift.commandCancel': def({
    name: localized('取消指令', 'Command cancelled', 'Отмена команды'),
    fields: ['name', 'args', 'commandId', 'reason'],
    summary: { default: localized('{command}，未发送到设备', '{command}, never sent to the lift', '{command}, не отправлена лифту'), refused: localized('{command}，已发送，无法取消', '{command}, sent already, not cancelled', '{command}, уже отправлена, не отменена') },
    variant: (d) => (d.reason ? 'refused' : 'default'),
    values: commandOf,
    lift: true,
    examples: [{ name: 'summon', args: { floor: 2 }, commandId: 'c1' }, { name: 'summon', args: { floor: 2 }, commandId: 'c1', reason: 'command.cancelTooLate' }],
  }),
  'lift.approvalRequest': def({
    name: localized('申请审批', 'Approval requested', 'Запрос одобрения'),
    fields: ['name', 'args', 'approvalId', 'justification', 'reason'],
    summary: { default: localized('{command}：{justification}', '{command}: {justification}', '{command}: {justification}') },
    values: (d, l) => ({ ...commandOf(d, l), justification: str(d.justification) }),
    lift: true,
    examples: [{ name: 'aging', args: { target: 'overall' }, approvalId: 'a1', justification: 'Yearly endurance check' }, { name: 'deform', args: { shape: 'fold' }, reason: 'leaseHeld' }],
  }),
  'lift.approvalDecision': def({
    name: localized('审批决定', 'Approval decision', 'Решение по одобрению'),
    fields: ['name', 'args', 'approvalId', 'decision', 'requester', 'reason'],
    summary: {
      approved: localized('批准 {requester} 的 {command}', 'Approved {command} requested by {requester}', 'Одобрено: {command}, запросил {requester}'),
      rejected: localized('拒绝 {requester} 的 {command}', 'Rejected {command} requested by {requester}', 'Отклонено: {command}, запросил {requester}'),
      withdrawn: localized('撤回 {command} 的申请', 'Withdrew the request for {command}', 'Запрос отозван: {command}'),
      default: localized('{command}', '{command}', '{command}'),
    },
    variant: (d) => (d.decision === 'approved' || d.decision === 'rejected' || d.decision === 'withdrawn' ? d.decision : 'default'),
    values: (d, l) => ({ ...commandOf(d, l), requester: str(d.requester) }),
    lift: true,
    examples: [
      { name: 'aging', args: { target: 'overall' }, approvalId: 'a1', decision: 'approved', requester: 'anna' },
      { name: 'aging', args: { target: 'overall' }, approvalId: 'a1', decision: 'rejected', requester: 'anna' },
      { name: 'aging', args: { target: 'overall' }, approvalId: 'a1', decision: 'withdrawn', requester: 'anna' },
      { name: 'aging', args: { target: 'overall' }, approvalId: 'a1', reason: 'approval.closed' },
    ],
  }),
  'lift.configure': def({
    name: localized('下发配置', 'Configuration sent', 'Запись конфигурации'),
    fields: COMMAND_FIELDS,
    summary: { default: localized('基于版本 {version}', 'Based on version {version}', 'На основе версии {version}') },
    values: configVersion,
    lift: true,
    examples: [{ name: 'configSet', args: { version: 3 }, reason: null }, { name: 'configSet', args: { version: 3, source: 'runConfig' }, reason: 'versionConflict' }],
  }),
  'lift.groupConfig': def({
    name: localized('批量下发配置', 'Group configuration sent', 'Групповая запись конфигурации'),
    fields: ['groupId', 'fields', 'lifts', 'sent', 'offline', 'skipped'],
    summary: {
      default: localized('字段 {fields}：{lifts} 台设备，发送 {sent}，离线 {offline}，跳过 {skipped}', 'Fields {fields}: {lifts} lifts, {sent} sent, {offline} offline, {skipped} skipped', 'Поля {fields}: лифтов {lifts}, отправлено {sent}, не в сети {offline}, пропущено {skipped}'),
    },
    values: (d) => ({ fields: Array.isArray(d.fields) ? d.fields.join(', ') : str(d.fields) }),
    examples: [{ groupId: '5f0c1f9e-0c55-4a33-9d0e-62f4a1f0a001', fields: ['rapidSpeed', 'voiceLanguage'], lifts: 12, sent: 10, offline: 1, skipped: 1 }],
  }),
  'lift.readConfig': def({
    name: localized('读取配置', 'Configuration read', 'Чтение конфигурации'),
    fields: COMMAND_FIELDS,
    summary: { default: localized('从设备读取配置', 'Read from the lift', 'Прочитана с лифта') },
    lift: true,
    examples: [{ name: 'configGet', args: {}, reason: null }],
  }),
  'lift.alias': def({ name: localized('修改名称', 'Renamed', 'Переименование'), fields: ['before', 'after'], summary: { default: BEFORE_AFTER }, lift: true, examples: [{ before: null, after: 'Library' }] }),
  'lift.location': def({
    name: localized('修改位置信息', 'Location changed', 'Изменение местоположения'),
    fields: ['before', 'after'],
    summary: { default: localized('新地址：{address}', 'New address: {address}', 'Новый адрес: {address}') },
    values: (d) => ({ address: str(obj(d.after).address) }),
    lift: true,
    examples: [{ before: null, after: { address: 'Main street 1', lat: 55.7, lng: 37.6 } }],
  }),
  'lift.iotInfo': def({
    name: localized('修改物联网信息', 'IoT information changed', 'Изменение данных IoT'),
    fields: ['before', 'after'],
    summary: { default: localized('运营商 {carrier}，ICCID {iccid}', 'Carrier {carrier}, ICCID {iccid}', 'Оператор {carrier}, ICCID {iccid}') },
    values: (d) => ({ carrier: str(obj(d.after).carrier), iccid: str(obj(d.after).iccid) }),
    lift: true,
    examples: [{ before: {}, after: { carrier: 'China Mobile', iccid: '898600000000000000' } }],
  }),
  'lift.exportLog': def({ name: localized('导出运行日志', 'Run log exported', 'Экспорт журнала'), fields: ['rows'], summary: { default: ROWS }, lift: true, examples: [{ rows: 40 }] }),
  'lift.exportLogbook': def({ name: localized('导出设备履历', 'Logbook exported', 'Экспорт журнала лифта'), fields: ['rows'], summary: { default: ROWS }, lift: true, examples: [{ rows: 120 }] }),
  'lift.verifyLogbook': def({
    name: localized('校验设备履历', 'Logbook verified', 'Проверка журнала лифта'),
    fields: ['checked', 'headSeq', 'brokenSeq', 'problem'],
    summary: {
      default: localized('{checked} 条记录完整', '{checked} entries intact', 'Записей без изменений: {checked}'),
      broken: localized('第 {brokenSeq} 条记录{problem}', 'Entry {brokenSeq} {problem}', 'Запись {brokenSeq}: {problem}'),
    },
    variant: (d) => (d.brokenSeq != null ? 'broken' : 'default'),
    values: (d, l) => ({ problem: word(LOGBOOK_PROBLEM_TEXTS, d.problem, l) }),
    lift: true,
    examples: [{ checked: 42, headSeq: 42 }, { checked: 6, headSeq: 42, brokenSeq: 7, problem: 'altered' }, { checked: 6, headSeq: 42, brokenSeq: 7, problem: 'missing' }, { checked: 6, headSeq: 42, brokenSeq: 7, problem: 'unlinked' }],
  }),
  'alert.acknowledge': def({ name: localized('确认告警', 'Alert acknowledged', 'Подтверждение тревоги'), fields: [], summary: { default: localized('告警已确认', 'The alert was acknowledged', 'Тревога подтверждена') }, lift: true, examples: [{}] }),
  'incident.open': def({
    name: localized('创建事件', 'Incident opened', 'Открытие инцидента'),
    fields: ['incidentId', 'title', 'priority'],
    summary: { default: localized('事件 {incidentId}：{title}', 'Incident {incidentId}: {title}', 'Инцидент {incidentId}: {title}') },
    lift: true,
    examples: [{ incidentId: 7, title: 'Seat belt torn', priority: 'normal' }],
  }),
  'incident.transition': def({
    name: localized('事件状态变更', 'Incident step', 'Шаг инцидента'),
    fields: ['incidentId', 'from', 'to', 'note', 'rootCause', 'reason'],
    summary: { default: localized('事件 {incidentId}：{fromText} → {toText}', 'Incident {incidentId}: {fromText} → {toText}', 'Инцидент {incidentId}: {fromText} → {toText}') },
    values: (d, l) => ({ fromText: word(INCIDENT_STATE_TEXTS, d.from, l), toText: word(INCIDENT_STATE_TEXTS, d.to, l) }),
    lift: true,
    examples: [
      { incidentId: 7, from: 'open', to: 'acknowledged' },
      { incidentId: 7, from: 'onSite', to: 'resolved', rootCause: 'wornPart' },
      { incidentId: 7, from: 'open', to: 'closed', reason: 'incident.transition' },
    ],
  }),
  'incident.assign': def({
    name: localized('指派技术员', 'Technician assigned', 'Назначение техника'),
    fields: ['incidentId', 'assignee', 'reason'],
    summary: { default: localized('事件 {incidentId} 指派给 {assignee}', 'Incident {incidentId} assigned to {assignee}', 'Инцидент {incidentId} назначен: {assignee}') },
    lift: true,
    examples: [{ incidentId: 7, assignee: 'li.wei' }, { incidentId: 7, assignee: 'guest', reason: 'incident.assignee' }],
  }),
  'incident.escalate': def({
    name: localized('事件升级', 'Incident escalated', 'Эскалация инцидента'),
    fields: ['incidentId', 'to', 'step', 'manager'],
    summary: {
      default: localized('事件 {incidentId} 无人确认，已通知值班人员 {to}', 'Incident {incidentId} not acknowledged: on-call {to} asked', 'Инцидент {incidentId} не принят: запрошен дежурный {to}'),
      manager: localized('事件 {incidentId} 值班无人确认，已通知负责人 {to}', 'Incident {incidentId} not acknowledged on call: manager {to} asked', 'Инцидент {incidentId} не принят дежурными: запрошен руководитель {to}'),
    },
    variant: (d) => (d.manager === true ? 'manager' : 'default'),
    lift: true,
    examples: [{ incidentId: 7, to: 'Li Wei', step: 0, manager: false }, { incidentId: 7, to: 'Zhang Min', step: 2, manager: true }],
  }),
  'incident.note': def({
    name: localized('事件备注', 'Incident note', 'Заметка к инциденту'),
    fields: ['incidentId'],
    summary: { default: localized('事件 {incidentId} 新增备注', 'A note was added to incident {incidentId}', 'К инциденту {incidentId} добавлена заметка') },
    lift: true,
    examples: [{ incidentId: 7 }],
  }),
  'incident.photo': def({
    name: localized('事件照片', 'Incident photo', 'Фото к инциденту'),
    fields: ['incidentId', 'photoId', 'size', 'sha256'],
    summary: { default: localized('事件 {incidentId} 新增照片', 'A photo was added to incident {incidentId}', 'К инциденту {incidentId} добавлено фото') },
    lift: true,
    examples: [{ incidentId: 7, photoId: '3f1c2e4a-5b6d-4e7f-8a9b-0c1d2e3f4a5b', size: 2_483_112, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }],
  }),
  'maintenance.declare': def({
    name: localized('声明维护时段', 'Maintenance window declared', 'Объявлено окно обслуживания'),
    fields: ['windowId', 'startsAt', 'endsAt', 'purpose', 'lifts'],
    summary: { default: localized('维护时段 {windowId}（{lifts} 台设备）：{startsAt} – {endsAt}，{purpose}', 'Maintenance window {windowId} ({lifts} lifts): {startsAt} – {endsAt}, {purpose}', 'Окно обслуживания {windowId} (лифтов: {lifts}): {startsAt} – {endsAt}, {purpose}') },
    lift: true,
    examples: [{ windowId: 3, startsAt: '2026-05-01T08:00:00.000Z', endsAt: '2026-05-01T12:00:00.000Z', purpose: 'Yearly inspection', lifts: 2 }],
  }),
  'maintenance.end': def({
    name: localized('提前结束维护时段', 'Maintenance window ended early', 'Окно обслуживания завершено досрочно'),
    fields: ['windowId'],
    summary: { default: localized('维护时段 {windowId} 已结束', 'Maintenance window {windowId} ended', 'Окно обслуживания {windowId} завершено') },
    lift: true,
    examples: [{ windowId: 3 }],
  }),
  // Maintenance plans and visits (docs/service.md).
  'maintenance.template': def({
    name: localized('修改保养检查表', 'Maintenance checklist changed', 'Изменение чек-листа обслуживания'),
    fields: ['orgId', 'kind', 'items'],
    summary: {
      default: localized('{kind}：{items} 项', '{kind}: {items} items', '{kind}: пунктов {items}'),
      reset: localized('{kind}：恢复默认检查表', '{kind}: back to the built-in checklist', '{kind}: снова встроенный чек-лист'),
    },
    variant: (d) => (d.items == null ? 'reset' : 'default'),
    examples: [{ orgId: 'o1', kind: 'verticalHydraulic', items: 12 }, { orgId: 'o1', kind: 'verticalHydraulic', items: null }],
  }),
  'maintenance.plan': def({
    name: localized('设置保养计划', 'Maintenance plan set', 'План обслуживания'),
    fields: ['intervalDays', 'intervalTrips'],
    summary: {
      default: localized('每 {intervalDays} 天或 {intervalTrips} 次运行', 'Every {intervalDays} days or {intervalTrips} trips', 'Каждые {intervalDays} дн. или {intervalTrips} поездок'),
      removed: localized('保养计划已删除', 'The plan was removed', 'План удалён'),
    },
    variant: (d) => (d.intervalDays == null && d.intervalTrips == null ? 'removed' : 'default'),
    values: (d) => ({ intervalDays: d.intervalDays == null ? '—' : str(d.intervalDays), intervalTrips: d.intervalTrips == null ? '—' : str(d.intervalTrips) }),
    lift: true,
    examples: [{ intervalDays: 90, intervalTrips: 20000 }, { intervalDays: 30, intervalTrips: null }, { intervalDays: null, intervalTrips: null }],
  }),
  'maintenance.visit': def({
    name: localized('保养记录', 'Maintenance visit', 'Обслуживание'),
    fields: ['visitId', 'checked', 'failed', 'incidentIds', 'reason'],
    summary: {
      default: localized('保养记录 {visitId}：{checked} 项，{failed} 项不合格，关闭 {incidents} 个事件', 'Visit {visitId}: {checked} items, {failed} failed, {incidents} incidents closed', 'Обслуживание {visitId}: пунктов {checked}, не пройдено {failed}, закрыто инцидентов {incidents}'),
      refused: localized('保养记录被拒绝：所选事件不属于此设备或已关闭', 'Visit refused: an incident named is not an open one of this lift', 'Запись отклонена: указанный инцидент не открыт на этом лифте'),
    },
    variant: (d) => (d.reason != null ? 'refused' : 'default'),
    values: (d) => ({ incidents: Array.isArray(d.incidentIds) ? d.incidentIds.length : 0 }),
    lift: true,
    examples: [{ visitId: 4, checked: 14, failed: 1, incidentIds: [7] }, { incidentIds: [9], reason: 'visit.incidentNotOnLift' }],
  }),
  'user.create': def({ name: localized('创建用户', 'User created', 'Создание пользователя'), fields: ['after'], summary: { default: NAMED('用户', 'User', 'Пользователь') }, values: (d) => ({ name: str(obj(d.after).username) }), examples: [{ after: { username: 'li.wei', roleId: 'r1', orgId: null } }] }),
  'user.update': def({
    name: localized('修改用户', 'User changed', 'Изменение пользователя'),
    fields: ['before', 'change'],
    summary: { default: localized('修改了：{fields}', 'Changed: {fields}', 'Изменено: {fields}') },
    values: (d, l) => ({ fields: Object.keys(obj(d.change)).filter((k) => k !== 'id').map((k) => word(USER_FIELDS, k, l)).join(LIST_SEPARATOR[l]) || '—' }),
    examples: [{ before: { name: 'Li' }, change: { id: 'u1', name: 'Li Wei', roleId: 'r2' } }],
  }),
  'user.freeze': def({ name: localized('冻结用户', 'User frozen', 'Заморозка пользователя'), fields: ['before', 'sessionsEnded'], summary: { default: SESSIONS_ENDED }, examples: [{ before: 'active', sessionsEnded: 1 }] }),
  'user.thaw': def({ name: localized('解冻用户', 'User unfrozen', 'Разморозка пользователя'), fields: ['before'], summary: { default: localized('用户可以再次登录', 'The user may sign in again', 'Пользователь снова может войти') }, examples: [{ before: 'frozen' }] }),
  'user.resetPassword': def({ name: localized('重置用户密码', 'User password reset', 'Сброс пароля пользователя'), fields: ['sessionsEnded'], summary: { default: SESSIONS_ENDED }, examples: [{ sessionsEnded: 0 }] }),
  'user.endSessions': def({ name: localized('结束用户会话', 'User sessions ended', 'Завершение сеансов пользователя'), fields: ['sessionsEnded'], summary: { default: SESSIONS_ENDED }, examples: [{ sessionsEnded: 3 }] }),
  'user.assign': def({
    name: localized('分配组织', 'Account assigned', 'Назначение учётной записи'),
    fields: ['orgId', 'orgName', 'roleId', 'roleName'],
    summary: { default: localized('加入 {orgName}，角色 {roleName}', 'Joins {orgName} as {roleName}', 'Организация {orgName}, роль {roleName}') },
    examples: [{ orgId: 'o1', orgName: 'Metro', roleId: 'r1', roleName: 'operator' }],
  }),
  'invite.create': def({
    name: localized('创建邀请码', 'Invite code created', 'Создание кода приглашения'),
    fields: INVITE_FIELDS,
    summary: { default: localized('邀请码 {prefix}…：{orgName}（{roleName}），{maxUses} 次，{days} 天', 'Code {prefix}…: {orgName} as {roleName}, {maxUses} uses, {days} days', 'Код {prefix}…: {orgName}, роль {roleName}, использований: {maxUses}, дней: {days}') },
    examples: [{ prefix: 'K7QM', orgId: 'o1', orgName: 'Metro', roleId: 'r1', roleName: 'operator', maxUses: 5, days: 7 }],
  }),
  'invite.revoke': def({
    name: localized('撤销邀请码', 'Invite code revoked', 'Отзыв кода приглашения'),
    fields: INVITE_FIELDS,
    summary: { default: localized('邀请码 {prefix}…（{orgName}）已失效', 'Code {prefix}… ({orgName}) no longer works', 'Код {prefix}… ({orgName}) больше не действует') },
    examples: [{ prefix: 'K7QM', orgId: 'o1', orgName: 'Metro', roleId: 'r1', roleName: 'operator', maxUses: 5, days: 7 }],
  }),
  'invite.redeem': def({
    name: localized('使用邀请码', 'Invite code redeemed', 'Ввод кода приглашения'),
    fields: ['invite', 'reason'],
    summary: {
      default: localized('邀请码 {prefix}… 加入 {orgName}（{roleName}）', 'Joins {orgName} as {roleName} with code {prefix}…', 'Код {prefix}…: {orgName}, роль {roleName}'),
      refused: localized('邀请码未被接受', 'The code was not accepted', 'Код не принят'),
    },
    variant: (d) => (d.reason ? 'refused' : 'default'),
    values: (d) => inviteOf(obj(d.invite)),
    examples: [{ invite: { id: 'i1', prefix: 'K7QM', orgId: 'o1', orgName: 'Metro', roleId: 'r1', roleName: 'operator' } }, { reason: 'inviteInvalid' }, { reason: 'user.hasOrganization' }],
  }),
  'org.create': def({ name: localized('创建组织', 'Organization created', 'Создание организации'), fields: ['after'], summary: { default: NAMED('组织', 'Organization', 'Организация') }, values: nameOf, examples: [{ after: { name: 'Metro', kind: 'operator' } }] }),
  'org.update': def({ name: localized('修改组织', 'Organization changed', 'Изменение организации'), fields: ['before', 'after'], summary: { default: NAMED('组织', 'Organization', 'Организация') }, values: nameOf, examples: [{ before: { name: 'Metro' }, after: { id: 'o1', name: 'Metro North' } }] }),
  'org.escalation': def({
    name: localized('修改值班升级', 'On-call escalation changed', 'Изменение эскалации дежурных'),
    fields: ['orgId', 'name', 'before', 'after', 'userIds', 'reason'],
    summary: {
      default: localized('{name}：值班 {count} 人，确认时限 {minutes} 分钟', '{name}: {count} on call, {minutes} min to acknowledge', '{name}: дежурных {count}, на принятие {minutes} мин'),
      refused: localized('值班名单未保存', 'On-call list not saved', 'Список дежурных не сохранён'),
    },
    variant: (d) => (d.after === undefined ? 'refused' : 'default'),
    values: (d) => {
      const after = obj(d.after);
      return { count: String(Array.isArray(after.onCall) ? after.onCall.length : 0), minutes: str(after.ackMinutes) };
    },
    examples: [
      { orgId: 'o1', name: 'Metro', before: { onCall: [], managerId: null, ackMinutes: 10 }, after: { onCall: ['u1', 'u2'], managerId: 'u3', ackMinutes: 5 } },
      { orgId: 'o1', userIds: ['u9'], reason: 'escalation.notCandidate' },
    ],
  }),
  'org.delete': def({ name: localized('删除组织', 'Organization deleted', 'Удаление организации'), fields: [], summary: { default: localized('组织已删除', 'The organization was deleted', 'Организация удалена') }, examples: [{}] }),
  'org.assignLifts': def({
    name: localized('分配设备', 'Lifts assigned', 'Назначение лифтов'),
    fields: ['liftIds'],
    summary: { default: localized('分配 {count} 台设备', '{count} lifts assigned', 'Назначено лифтов: {count}') },
    values: (d) => ({ count: Array.isArray(d.liftIds) ? d.liftIds.length : 0 }),
    examples: [{ liftIds: ['a', 'b'] }],
  }),
  // An organization's webhooks (docs/webhooks.md); the detail never holds a secret.
  'webhook.create': def({
    name: localized('创建 Webhook', 'Webhook created', 'Создание вебхука'),
    fields: ['orgId', 'after'],
    summary: { default: localized('Webhook {url}', 'Webhook {url}', 'Вебхук {url}') },
    values: (d) => ({ url: str(obj(d.after).url) }),
    examples: [{ orgId: 'o1', after: { url: 'https://tickets.example.com/liftlink', eventTypes: ['alert.raised'], enabled: true } }],
  }),
  'webhook.update': def({
    name: localized('修改 Webhook', 'Webhook changed', 'Изменение вебхука'),
    fields: ['orgId', 'before', 'after'],
    summary: { default: localized('Webhook {url}', 'Webhook {url}', 'Вебхук {url}') },
    values: (d) => ({ url: str(obj(d.after).url ?? obj(d.before).url) }),
    examples: [{ orgId: 'o1', before: { url: 'https://tickets.example.com/a', enabled: true }, after: { url: 'https://tickets.example.com/a', enabled: false } }],
  }),
  'webhook.delete': def({
    name: localized('删除 Webhook', 'Webhook deleted', 'Удаление вебхука'),
    fields: ['orgId', 'before'],
    summary: { default: localized('Webhook {url}', 'Webhook {url}', 'Вебхук {url}') },
    values: (d) => ({ url: str(obj(d.before).url) }),
    examples: [{ orgId: 'o1', before: { url: 'https://tickets.example.com/liftlink' } }],
  }),
  'webhook.rotateSecret': def({
    name: localized('更换 Webhook 密钥', 'Webhook secret replaced', 'Замена секрета вебхука'),
    fields: ['orgId', 'url'],
    summary: { default: localized('{url} 使用新密钥签名', '{url} is signed with a new secret', '{url}: подпись новым секретом') },
    examples: [{ orgId: 'o1', url: 'https://tickets.example.com/liftlink' }],
  }),
  'webhook.test': def({
    name: localized('Webhook 测试发送', 'Webhook test sent', 'Тестовая отправка вебхука'),
    fields: ['orgId', 'url', 'statusCode', 'error'],
    summary: {
      default: localized('{url} 应答 {statusCode}', '{url} answered {statusCode}', '{url} ответил {statusCode}'),
      unreachable: localized('{url} 无法送达：{error}', '{url} not reached: {error}', '{url} недоступен: {error}'),
    },
    variant: (d) => (d.statusCode == null ? 'unreachable' : 'default'),
    examples: [{ orgId: 'o1', url: 'https://tickets.example.com/liftlink', statusCode: 200 }, { orgId: 'o1', url: 'https://tickets.example.com/liftlink', statusCode: null, error: 'timeout' }],
  }),
  'role.create': def({ name: localized('创建角色', 'Role created', 'Создание роли'), fields: ['after'], summary: { default: NAMED('角色', 'Role', 'Роль') }, values: nameOf, examples: [{ after: { name: 'Service' } }] }),
  'role.update': def({ name: localized('修改角色', 'Role changed', 'Изменение роли'), fields: ['before', 'after'], summary: { default: NAMED('角色', 'Role', 'Роль') }, values: nameOf, examples: [{ before: { name: 'Service' }, after: { id: 'r1', name: 'Field service' } }] }),
  'role.delete': def({ name: localized('删除角色', 'Role deleted', 'Удаление роли'), fields: [], summary: { default: localized('角色已删除', 'The role was deleted', 'Роль удалена') }, examples: [{}] }),
  'system.backup': def({
    name: localized('备份', 'Backup', 'Резервная копия'),
    fields: ['bytes', 'schema', 'counts'],
    summary: { default: localized('{size}，数据库结构 {schema}', '{size}, database schema {schema}', '{size}, схема базы данных {schema}') },
    values: (d) => ({ size: `${(Number(d.bytes ?? 0) / 1_048_576).toFixed(1)} MB` }),
    examples: [{ bytes: 5_242_880, schema: '0012_partitions', counts: { lifts: 3 } }],
  }),
  'document.upload': def({
    name: localized('上传文档', 'Document uploaded', 'Загрузка документа'),
    fields: ['name', 'kind', 'size', 'sha256'],
    summary: { default: localized('{name}（{kb} KB）', '{name} ({kb} KB)', '{name} ({kb} КБ)') },
    values: (d) => ({ kb: Math.ceil(Number(d.size ?? 0) / 1024) }),
    examples: [{ name: 'manual.pdf', kind: 'manual', size: 20_480, sha256: 'ab' }],
  }),
  'report.generate': def({
    name: localized('生成报表', 'Report generated', 'Формирование отчёта'),
    fields: ['month', 'site', 'language'],
    summary: { default: localized('{month}，{where}', '{month}, {where}', '{month}, {where}') },
    values: (d, lang) => ({ where: d.site ? str(d.site) : pickText(localized('整个组织', 'whole organization', 'вся организация'), lang) }),
    examples: [{ month: '2026-10', site: null, language: 'en-US' }, { month: '2026-10', site: 'North', language: 'ru-RU' }],
  }),
  'report.download': def({
    name: localized('下载报表', 'Report downloaded', 'Скачивание отчёта'),
    fields: ['month', 'site', 'format'],
    summary: { default: localized('{month}，{format}', '{month}, {format}', '{month}, {format}') },
    values: (d) => ({ format: str(d.format).toUpperCase() }),
    examples: [{ month: '2026-10', site: null, format: 'pdf' }],
  }),
  'document.delete': def({ name: localized('删除文档', 'Document deleted', 'Удаление документа'), fields: ['name'], summary: { default: localized('{name}', '{name}', '{name}') }, examples: [{ name: 'manual.pdf' }] }),
  // Firmware packages (docs/firmware.md).
  'firmware.create': def({
    name: localized('创建固件包', 'Firmware package created', 'Создание пакета прошивки'),
    fields: ['orgId', 'version', 'minVersion', 'kinds'],
    summary: { default: localized('{version}（最低 {minVersion}）', '{version} (minimum {minVersion})', '{version} (минимум {minVersion})') },
    examples: [{ orgId: 'o1', version: 'FW-1.5.0', minVersion: 'FW-1.2.0', kinds: ['inclinedStraightRack'] }],
  }),
  'firmware.upload': def({
    name: localized('上传固件', 'Firmware image uploaded', 'Загрузка образа прошивки'),
    fields: ['orgId', 'version', 'size', 'sha256'],
    summary: { default: localized('{version}（{kb} KB，SHA-256 {sha}…）', '{version} ({kb} KB, SHA-256 {sha}…)', '{version} ({kb} КБ, SHA-256 {sha}…)') },
    values: (d) => ({ kb: Math.ceil(Number(d.size ?? 0) / 1024), sha: str(d.sha256).slice(0, 12) }),
    examples: [{ orgId: 'o1', version: 'FW-1.5.0', size: 1_048_576, sha256: '30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58' }],
  }),
  'firmware.withdraw': def({
    name: localized('撤回固件包', 'Firmware package withdrawn', 'Отзыв пакета прошивки'),
    fields: ['orgId', 'version'],
    summary: { default: localized('{version} 不再提供或下载', '{version} is no longer offered or downloaded', '{version} больше не предлагается и не загружается') },
    examples: [{ orgId: 'o1', version: 'FW-1.5.0' }],
  }),
  // Firmware campaigns (docs/firmware.md).
  'firmware.campaignCreate': def({
    name: localized('创建固件升级活动', 'Firmware campaign created', 'Создание кампании обновления'),
    fields: ['orgId', 'name', 'version', 'lifts'],
    summary: { default: localized('{name}：{version}，{lifts} 台设备，待批准', '{name}: {version} to {lifts} lifts, awaiting approval', '{name}: {version}, лифтов: {lifts}, ждёт одобрения') },
    examples: [{ orgId: 'o1', name: 'Spring update', version: 'FW-1.5.0', lifts: 120 }],
  }),
  'firmware.campaignApprove': def({
    name: localized('批准固件升级活动', 'Firmware campaign approved', 'Одобрение кампании обновления'),
    fields: ['orgId', 'name', 'version', 'createdBy'],
    summary: { default: localized('{name}（{version}，由 {createdBy} 创建）开始', '{name} ({version}, created by {createdBy}) starts', '{name} ({version}, создал {createdBy}) запущена') },
    examples: [{ orgId: 'o1', name: 'Spring update', version: 'FW-1.5.0', createdBy: 'anna' }],
  }),
  'firmware.campaignPause': def({
    name: localized('暂停固件升级活动', 'Firmware campaign paused', 'Пауза кампании обновления'),
    fields: ['orgId', 'name', 'reason'],
    summary: {
      default: localized('{name}', '{name}', '{name}'),
      failureThreshold: localized('{name}：失败过多，自动暂停', '{name}: paused by itself, too many failures', '{name}: остановлена сама, слишком много сбоев'),
    },
    variant: (d) => (d.reason === 'failureThreshold' ? 'failureThreshold' : 'default'),
    examples: [{ orgId: 'o1', name: 'Spring update', reason: 'manual' }, { orgId: 'o1', name: 'Spring update', reason: 'failureThreshold' }],
  }),
  'firmware.campaignResume': def({
    name: localized('继续固件升级活动', 'Firmware campaign resumed', 'Продолжение кампании обновления'),
    fields: ['orgId', 'name'],
    summary: { default: localized('{name}', '{name}', '{name}') },
    examples: [{ orgId: 'o1', name: 'Spring update' }],
  }),
  'firmware.campaignCancel': def({
    name: localized('取消固件升级活动', 'Firmware campaign cancelled', 'Отмена кампании обновления'),
    fields: ['orgId', 'name', 'notOffered', 'reason'],
    summary: {
      default: localized('{name}：{notOffered} 台设备不再提供升级', '{name}: {notOffered} lifts are no longer offered it', '{name}: не будет предложено лифтам: {notOffered}'),
      packageWithdrawn: localized('{name}：升级包已撤回，{notOffered} 台设备不再提供升级', '{name}: its package was withdrawn, {notOffered} lifts are no longer offered it', '{name}: пакет отозван, не будет предложено лифтам: {notOffered}'),
    },
    variant: (d) => (d.reason === 'packageWithdrawn' ? 'packageWithdrawn' : 'default'),
    examples: [{ orgId: 'o1', name: 'Spring update', notOffered: 80 }, { orgId: 'o1', name: 'Spring update', notOffered: 80, reason: 'packageWithdrawn' }],
  }),
  'manufacture.assignDeviceNo': def({
    name: localized('分配设备号', 'Device number assigned', 'Присвоение номера устройства'),
    fields: IOT_FIELDS,
    summary: { default: localized('控制器 {controllerSerial}，{floors} 层，固件 {firmware}', 'Controller {controllerSerial}, {floors} floors, firmware {firmware}', 'Контроллер {controllerSerial}, этажей: {floors}, прошивка {firmware}') },
    lift: true,
    examples: [iotExample, { ...iotExample, code: 'lift.registered' }],
  }),
  'manufacture.updateIotInfo': def({
    name: localized('更新设备信息', 'Device information updated', 'Обновление данных устройства'),
    fields: IOT_FIELDS,
    summary: { default: localized('控制器 {controllerSerial}，{floors} 层，固件 {firmware}', 'Controller {controllerSerial}, {floors} floors, firmware {firmware}', 'Контроллер {controllerSerial}, этажей: {floors}, прошивка {firmware}') },
    lift: true,
    examples: [{ ...iotExample, mode: 'update' }],
  }),
  'manufacture.issueIot': def({ name: localized('签发物联网凭据', 'IoT credentials issued', 'Выдача учётных данных IoT'), fields: withCode(), summary: { default: localized('已签发新的设备凭据', 'New device credentials were issued', 'Выданы новые учётные данные устройства') }, lift: true, examples: [{}] }),
  'manufacture.resetIot': def({ name: localized('吊销物联网凭据', 'IoT credentials revoked', 'Отзыв учётных данных IoT'), fields: withCode(), summary: { default: localized('设备凭据已失效', 'The device credentials no longer work', 'Учётные данные устройства больше не действуют') }, lift: true, examples: [{}, { code: 'forbidden' }] }),
  'manufacture.setLiftConfig': def({
    name: localized('下发全部配置', 'Whole configuration sent', 'Запись всей конфигурации'),
    fields: withCode('version'),
    summary: { default: localized('基于版本 {version}', 'Based on version {version}', 'На основе версии {version}') },
    lift: true,
    examples: [{ version: 3 }, { version: 3, code: 'config.reconfigure' }],
  }),
  'manufacture.runConfig': def({
    name: localized('下发运行设置', 'Run settings sent', 'Запись рабочих настроек'),
    fields: withCode('version'),
    summary: { default: localized('基于版本 {version}', 'Based on version {version}', 'На основе версии {version}') },
    lift: true,
    examples: [{ version: 4 }],
  }),
  'manufacture.bridgePairCode': def({
    name: localized('串口助手配对码', 'Serial bridge pairing code', 'Код сопряжения моста'),
    fields: ['expiresAt'],
    summary: { default: localized('有效至 {expiresAt} UTC', 'Valid until {expiresAt} UTC', 'Действует до {expiresAt} UTC') },
    values: (d) => ({ expiresAt: typeof d.expiresAt === 'string' ? d.expiresAt.slice(0, 16).replace('T', ' ') : '—' }),
    examples: [{ expiresAt: '2026-03-01T10:05:00.000Z' }],
  }),
  'manufacture.bridgePaired': def({ name: localized('串口助手已配对', 'Serial bridge paired', 'Мост сопряжён'), fields: [], summary: { default: localized('串口助手可代表该用户工作', 'The serial bridge now acts for this user', 'Мост работает от имени пользователя') }, examples: [{}] }),
  'manufacture.serial.handshake': def({
    name: localized('串口握手', 'Serial handshake', 'Опрос по последовательному порту'),
    fields: serialFields(),
    summary: { default: localized('控制器已应答', 'The controller answered', 'Контроллер ответил'), failed: SERIAL_FAILED },
    variant: (d) => (d.code ? 'failed' : 'default'),
    lift: true,
    examples: [{ deviceNo: 'LL-0001' }, { deviceNo: null, code: 'timeout' }],
  }),
  'manufacture.serial.writeDeviceNo': def({
    name: localized('串口写入设备号', 'Device number written over serial', 'Запись номера устройства'),
    fields: serialFields(),
    summary: { default: localized('写入设备号 {deviceNo}', 'Device number {deviceNo} written', 'Записан номер устройства {deviceNo}') },
    lift: true,
    examples: [{ deviceNo: 'LL-0001' }],
  }),
  'manufacture.serial.writeCredentials': def({
    name: localized('串口写入凭据', 'Credentials written over serial', 'Запись учётных данных'),
    fields: serialFields('mqttUrl'),
    summary: { default: localized('设备 {deviceNo} 的凭据，服务器 {mqttUrl}', 'Credentials of {deviceNo}, broker {mqttUrl}', 'Учётные данные {deviceNo}, брокер {mqttUrl}') },
    lift: true,
    examples: [{ deviceNo: 'LL-0001', mqttUrl: 'mqtts://cloud.example:8883' }],
  }),
  'manufacture.serial.writeFirmwareKeys': def({
    name: localized('串口写入固件签名密钥', 'Firmware signing key written over serial', 'Запись ключа подписи прошивки'),
    fields: serialFields('keyIds'),
    summary: { default: localized('设备 {deviceNo} 信任密钥 {keys}', '{deviceNo} trusts key {keys}', '{deviceNo} доверяет ключу {keys}'), failed: SERIAL_FAILED },
    values: (d) => ({ keys: Array.isArray(d.keyIds) ? d.keyIds.join(', ') : '' }),
    variant: (d) => (d.code ? 'failed' : 'default'),
    lift: true,
    examples: [{ deviceNo: 'LL-0001', keyIds: ['3f2a9c0d1e4b5a67'] }, { deviceNo: 'LL-0001', code: 'mismatch' }],
  }),
  'manufacture.serial.writeConfig': def({
    name: localized('串口写入配置', 'Configuration written over serial', 'Запись конфигурации по кабелю'),
    fields: serialFields('version'),
    summary: { default: localized('配置版本 {version} 已写入并保存', 'Configuration version {version} written and saved', 'Конфигурация версии {version} записана и сохранена'), failed: SERIAL_FAILED },
    variant: (d) => (d.code ? 'failed' : 'default'),
    lift: true,
    examples: [{ deviceNo: 'LL-0001', version: 3 }, { deviceNo: 'LL-0001', code: 'configInvalid' }],
  }),
  'manufacture.serial.saveConfig': def({
    name: localized('串口保存配置', 'Configuration saved over serial', 'Сохранение конфигурации'),
    fields: serialFields(),
    summary: { default: localized('配置已保存到控制器', 'The configuration was saved on the controller', 'Конфигурация сохранена в контроллере') },
    lift: true,
    examples: [{ deviceNo: 'LL-0001' }],
  }),
  'manufacture.serial.writeChannel': def({
    name: localized('串口写入轮询通道', 'Polling channel written', 'Запись канала опроса'),
    fields: serialFields('channel', 'enabled', 'slaveAddress', 'functionCode', 'startRegister', 'count', 'intervalMs', 'timeoutMs', 'retries'),
    summary: {
      default: localized(
        '轮询通道 {channel}：从站 {slaveAddress}，功能码 {functionCode}，自寄存器 {startRegister} 起 {count} 个，每 {intervalMs} 毫秒',
        'Polling channel {channel}: slave {slaveAddress}, function {functionCode}, {count} from register {startRegister}, every {intervalMs} ms',
        'Канал опроса {channel}: ведомый {slaveAddress}, функция {functionCode}, {count} с регистра {startRegister}, каждые {intervalMs} мс',
      ),
      off: localized('轮询通道 {channel} 已关闭', 'Polling channel {channel} turned off', 'Канал опроса {channel} выключен'),
    },
    variant: (d) => (d.enabled === false ? 'off' : 'default'),
    lift: true,
    examples: [
      { deviceNo: 'LL-0001', channel: 2, enabled: true, slaveAddress: 1, functionCode: 3, startRegister: 0, count: 10, intervalMs: 1000, timeoutMs: 300, retries: 1 },
      { deviceNo: 'LL-0001', channel: 3, enabled: false, slaveAddress: 1, functionCode: 3, startRegister: 0, count: 10, intervalMs: 1000, timeoutMs: 300, retries: 1 },
    ],
  }),
  'manufacture.serial.writeConversions': def({
    name: localized('串口写入数据转换', 'Data conversions written', 'Запись преобразований данных'),
    fields: serialFields('count'),
    summary: { default: localized('写入 {count} 条数据转换', '{count} data conversions written', 'Записано преобразований: {count}') },
    lift: true,
    examples: [{ deviceNo: 'LL-0001', count: 10 }],
  }),
  'manufacture.serial.writePort': def({
    name: localized('串口写入现场串口', 'Field port written', 'Запись полевого порта'),
    fields: serialFields('baudRate', 'dataBits', 'parity', 'stopBits'),
    summary: {
      default: localized(
        '现场串口：{baudRate} 波特，{dataBits} 位数据，校验 {parity}，{stopBits} 位停止',
        'Field port: {baudRate} baud, {dataBits} data bits, parity {parity}, {stopBits} stop bits',
        'Полевой порт: {baudRate} бод, бит данных: {dataBits}, чётность {parity}, стоп-бит: {stopBits}',
      ),
    },
    values: (d, l) => ({ parity: word(PARITY, d.parity, l) }),
    lift: true,
    examples: [{ deviceNo: 'LL-0001', baudRate: 9600, dataBits: 8, parity: 'even', stopBits: 1 }],
  }),
} satisfies Record<string, AuditActionDef>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
/** The actions on a lift, which the operation log lists. */
export const LIFT_AUDIT_ACTIONS = AUDIT_ACTION_NAMES.filter((a) => AUDIT_ACTIONS[a].lift === true);

export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, action);
}

function languageOf(lang: string): Language {
  return (LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : DEFAULT_LANGUAGE;
}

/** The action's name; the code itself for an action this table does not know (an old row). */
export function auditActionName(action: string, lang: string): string {
  return isAuditAction(action) ? pickText(AUDIT_ACTIONS[action].name, lang) : action;
}

/** Fills `{key}` from `values`; a key without a value stays as it is, so a test sees it. */
export function fillTemplate(template: string, values: Values): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/**
 * The detail of an audited action in one line, in `lang`: the action's summary, then why
 * it was refused or failed. An action this table does not know shows its detail as JSON.
 */
export function auditSummary(action: string, detail: AuditDetail | null | undefined, lang: string): string {
  const d = detail ?? {};
  const reasonCode = d.reason ?? d.code;
  const reason = typeof reasonCode === 'string' && reasonCode ? auditReasonText(reasonCode, lang) : '';
  if (!isAuditAction(action)) return Object.keys(d).length ? JSON.stringify(d).slice(0, 200) : '';
  const a: AuditActionDef = AUDIT_ACTIONS[action];
  const l = languageOf(lang);
  const template = a.summary[a.variant?.(d) ?? 'default'] ?? a.summary.default;
  const values: Values = {};
  for (const field of a.fields) values[field] = str(d[field]);
  const text = fillTemplate(template[l], { ...values, ...a.values?.(d, l) });
  // The demo fleet's generated history says so wherever it is read (page and CSV).
  return [text, reason, d.demo === true ? DEMO_DATA[l] : ''].filter(Boolean).join(' · ');
}

const DEMO_DATA = localized('演示数据', 'demo data', 'демо-данные');
