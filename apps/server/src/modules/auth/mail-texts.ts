import type { Language } from '@liftlink/protocol';

type MailKind = 'activate' | 'reset';

/** Mails in the recipient's language; the link is the only variable part. */
const TEXTS: Record<MailKind, Record<Language, { subject: string; body: (link: string) => string }>> = {
  activate: {
    'zh-CN': { subject: 'LiftLink 账户激活', body: (l) => `欢迎使用 LiftLink。请在 24 小时内打开以下链接激活您的账户：\n\n${l}\n` },
    'en-US': { subject: 'Activate your LiftLink account', body: (l) => `Welcome to LiftLink. Open this link within 24 hours to activate your account:\n\n${l}\n` },
    'ru-RU': { subject: 'Активация учётной записи LiftLink', body: (l) => `Добро пожаловать в LiftLink. Откройте ссылку в течение 24 часов, чтобы активировать учётную запись:\n\n${l}\n` },
  },
  reset: {
    'zh-CN': { subject: 'LiftLink 重置密码', body: (l) => `请在 1 小时内打开以下链接设置新密码：\n\n${l}\n\n如果不是您本人操作，请忽略此邮件。\n` },
    'en-US': { subject: 'Reset your LiftLink password', body: (l) => `Open this link within 1 hour to set a new password:\n\n${l}\n\nIf you did not ask for this, ignore this mail.\n` },
    'ru-RU': { subject: 'Сброс пароля LiftLink', body: (l) => `Откройте ссылку в течение 1 часа, чтобы задать новый пароль:\n\n${l}\n\nЕсли вы не запрашивали сброс, проигнорируйте это письмо.\n` },
  },
};

export function mailText(kind: MailKind, language: string | undefined, link: string): { subject: string; text: string } {
  const t = TEXTS[kind][(language as Language) in TEXTS[kind] ? (language as Language) : 'zh-CN'];
  return { subject: t.subject, text: t.body(link) };
}
