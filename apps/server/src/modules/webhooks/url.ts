import { isIP } from 'node:net';

/** Host names that always mean this machine. */
const LOOPBACK_NAMES = new Set(['localhost', '::1']);

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * Whether a webhook may be sent to `raw`: https; http only to a loopback address (a receiver
 * on the same machine) unless `allowHttp` (WEBHOOK_ALLOW_HTTP) — events and their signature
 * must not cross a network in clear. A user name or password in the address is refused:
 * the secret is the credential, and the address is listed to every reader of the endpoint.
 * Returns the address as stored (normalized), or null when it is refused.
 */
export function acceptableWebhookUrl(raw: string, allowHttp: boolean): string | null {
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (url.username || url.password) return null;
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && (allowHttp || isLoopback(url.hostname))) return url.href;
  return null;
}
