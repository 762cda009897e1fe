import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, body, client, login, startTestApp, type TestApp } from './helpers.ts';
import { createMailer } from '../src/plugins/messaging.ts';
import { startSmtp } from './support/smtp.ts';

// Links are read from the decoded body: nodemailer sends a mail quoted-printable or base64 by
// whether Latin letters outnumber the others, so a Russian mail changes encoding with its random token.
describe.each(DB_KINDS)('registration and recovery on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp(kind, { PUBLIC_URL: 'https://lifts.example.test' });
    // This suite sends through real SMTP instead of the in-memory mailer.
    (t.app as unknown as { mailer: unknown }).mailer = createMailer(`smtp://127.0.0.1:${smtp.port}`, 'LiftLink <no-reply@liftlink.test>', t.dataDir);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function smsCode(mobile: string): Promise<string> {
    expect((await client(t.app).post('/account/sms', { mobile })).statusCode).toBe(200);
    return t.sms.filter((s) => s.mobile === mobile).at(-1)!.text.match(/\d{6}/)![0];
  }

  it('registers, mails an activation link valid 24 hours, activates, then signs in', async () => {
    const mobile = '+79161234567';
    const form = { email: `ivan.${kind}@example.test`, username: `ivan_${kind}`, password: 'Krepkiy-Parol-42', mobile, captcha: await smsCode(mobile), language: 'ru-RU' as const };
    const res = await client(t.app).post('/auth/register', form);
    expect(res.statusCode).toBe(200);
    const pending = await client(t.app).post('/auth/access/login', { username: form.username, password: form.password });
    expect(body(pending).code).toBe('auth.pending');
    const mail = smtp.mails.find((m) => m.to.includes(form.email))!;
    expect(mail).toBeDefined();
    const link = mail.text.match(/https:\/\/lifts\.example\.test\/user\/activate\?token=([\w-]+)/)!;
    expect(link).toBeTruthy();
    const [row] = await t.database.sql.query<{ hours: number }>(
      `select extract(epoch from expires_at - created_at) / 3600 as hours from one_time_codes where purpose = 'activate' order by created_at desc limit 1`,
    );
    expect(Number(row!.hours)).toBeCloseTo(24, 3);
    expect(body(await client(t.app).post('/auth/activate', { token: link[1] })).success).toBe(true);
    expect(body(await client(t.app).post('/auth/activate', { token: link[1] })).code).toBe('auth.tokenInvalid');
    await login(t.app, form.username, form.password);
  });

  it('refuses a wrong code, a taken username and a weak password, creating nothing', async () => {
    const before = await t.database.sql.query('select id from users');
    const mobile = '+8613700000001';
    const bad = await client(t.app).post('/auth/register', { email: 'a@example.test', username: 'someone', password: 'Good-Password-7', mobile, captcha: '123456' });
    expect(body(bad).code).toBe('auth.badCaptcha');
    const taken = await client(t.app).post('/auth/register', { email: 'b@example.test', username: 'admin', password: 'Good-Password-7', mobile, captcha: await smsCode(mobile) });
    expect(body(taken).code).toBe('user.exists');
    const badEmail = await client(t.app).post('/auth/register', { email: 'not-an-email', username: 'x1', password: 'Good-Password-7', mobile, captcha: '123456' });
    expect(body(badEmail).result.issues).toContainEqual({ path: 'email', message: 'validation.email' });
    expect(await t.database.sql.query('select id from users')).toHaveLength(before.length);
  });

  it('resets a forgotten password by a mailed link and ends old sessions', async () => {
    const mobile = '+8613700000002';
    const email = `li.${kind}@example.test`;
    await client(t.app).post('/auth/register', { email, username: `li_${kind}`, password: 'First-Password-1', mobile, captcha: await smsCode(mobile) });
    const act = smtp.mails.find((m) => m.to.includes(email))!.text.match(/token=([\w-]+)/)![1];
    await client(t.app).post('/auth/activate', { token: act });
    const oldToken = await login(t.app, `li_${kind}`, 'First-Password-1');
    const count = smtp.mails.length;
    expect((await client(t.app).post('/auth/forge-password', { email })).statusCode).toBe(200);
    expect((await client(t.app).post('/auth/forge-password', { email: 'nobody@example.test' })).statusCode).toBe(200);
    expect(smtp.mails.length).toBe(count + 1);
    const reset = smtp.mails.at(-1)!.text.match(/reset-password\?token=([\w-]+)/)![1];
    expect((await client(t.app).post('/auth/reset-password', { token: reset, password: 'Second-Password-2' })).statusCode).toBe(200);
    expect((await client(t.app, oldToken).get('/auth/access/info')).statusCode).toBe(401);
    await login(t.app, `li_${kind}`, 'Second-Password-2');
  });
});
