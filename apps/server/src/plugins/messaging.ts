import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Files sent with the mail (the monthly report's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}
/** A text message provider; the embedded one writes to `DATA_DIR/outbox/sms.log`. */
export interface SmsSender {
  send(mobile: string, text: string): Promise<void>;
}

/**
 * Mail goes through nodemailer: to `SMTP_URL` when set, else rendered as .eml files in
 * `DATA_DIR/outbox`, so the embedded mode needs no mail server and links can be followed.
 */
export function createMailer(smtpUrl: string | undefined, from: string, outbox: string): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return { send: async (mail) => void (await transport.sendMail({ from, ...mail })) };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (mail) => {
      const info = await transport.sendMail({ from, ...mail });
      mkdirSync(outbox, { recursive: true });
      const file = `${new Date().toISOString().replaceAll(':', '-')}-${Math.random().toString(36).slice(2, 8)}.eml`;
      writeFileSync(path.join(outbox, file), info.message as Buffer, { mode: 0o600 });
    },
  };
}

export function createOutboxSms(outbox: string): SmsSender {
  return {
    send: async (mobile, text) => {
      mkdirSync(outbox, { recursive: true });
      appendFileSync(path.join(outbox, 'sms.log'), `${JSON.stringify({ ts: new Date().toISOString(), to: mobile, text })}\n`, { mode: 0o600 });
    },
  };
}

export default fp(async (app) => {
  const outbox = path.join(app.config.dataDir, 'outbox');
  if (!app.hasDecorator('mailer')) app.decorate('mailer', createMailer(app.config.smtpUrl, app.config.mailFrom, outbox));
  if (!app.hasDecorator('sms')) app.decorate('sms', createOutboxSms(outbox));
});
