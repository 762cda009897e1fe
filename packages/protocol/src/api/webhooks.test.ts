import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_REPLAY_WINDOW_SECONDS, signWebhook, verifyWebhookSignature, webhookSignatureOf } from './webhooks.ts';

/** The signature rule as receivers implement it without this package (docs/webhooks.md). */
describe('webhook signature', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"e1","type":"alert.raised","occurredAt":"2026-11-24T22:40:00.000Z","data":{"code":"EA"}}';
  const t = 1_764_024_000;

  it('is the hex HMAC-SHA256 of "<t>.<body>", as node:crypto computes it', async () => {
    expect(await webhookSignatureOf(secret, t, body)).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
    expect(await signWebhook(secret, body, t)).toMatch(/^t=1764024000,v1=[0-9a-f]{64}$/);
  });

  it('accepts a fresh signature and refuses a changed body, another secret, an old or future time, a broken header', async () => {
    const header = await signWebhook(secret, body, t);
    expect(await verifyWebhookSignature(secret, body, header, t + 10)).toEqual({ ok: true, timestamp: t });
    expect(await verifyWebhookSignature(secret, body.replace('EA', 'EB'), header, t)).toEqual({ ok: false, reason: 'mismatch' });
    expect(await verifyWebhookSignature('whsec_other', body, header, t)).toEqual({ ok: false, reason: 'mismatch' });
    expect(await verifyWebhookSignature(secret, body, header, t + WEBHOOK_REPLAY_WINDOW_SECONDS + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyWebhookSignature(secret, body, header, t - WEBHOOK_REPLAY_WINDOW_SECONDS - 1)).toEqual({ ok: false, reason: 'expired' });
    for (const broken of [undefined, '', 't=abc,v1=00', `t=${t}`, 'v1=00']) expect((await verifyWebhookSignature(secret, body, broken, t)).ok, String(broken)).toBe(false);
    // A second v1 (another secret during a rotation) does not hide the matching one.
    const [, v1] = header.split(',v1=');
    expect(await verifyWebhookSignature(secret, body, `t=${t},v1=${'0'.repeat(64)},v1=${v1}`, t)).toEqual({ ok: true, timestamp: t });
  });
});
