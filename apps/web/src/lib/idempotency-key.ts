/**
 * One key per click (docs/remote-control.md, "No replays"): 32 hex characters, which the
 * server's `idempotencyKeySchema` accepts. `crypto.randomUUID` exists only on secure pages;
 * a lift page served over plain HTTP on a site network uses `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
