import { PAIRING_CODE_TTL_MS, pairingCodeSchema } from '@liftlink/protocol';

export interface PendingPairing {
  code: string;
  user: string;
  until: number;
}

export type VerifyResult = { ok: true; pairing: PendingPairing } | { ok: false; reason: 'format' | 'refused' | 'unreachable'; message: string };

/**
 * Verifies a pairing code with the LiftLink server (`POST /manufacture/bridge/pair/verify`),
 * which spends it: a code works once, for one bridge. The answer names the user who asked
 * for it; the bridge then accepts that code once from a page of the configured origin.
 */
export async function verifyWithServer(serverUrl: string, typed: string, fetchImpl: typeof fetch = fetch): Promise<VerifyResult> {
  const parsed = pairingCodeSchema.safeParse(typed);
  if (!parsed.success) return { ok: false, reason: 'format', message: 'a pairing code has 8 letters or digits, e.g. ABCD-EF23' };
  let res: Response;
  try {
    res = await fetchImpl(new URL('/manufacture/bridge/pair/verify', serverUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code: parsed.data }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    return { ok: false, reason: 'unreachable', message: `cannot reach ${serverUrl}: ${(err as Error).message}` };
  }
  const body = (await res.json().catch(() => null)) as { success?: boolean; msg?: string; result?: { user?: string } } | null;
  if (!res.ok || !body?.success || typeof body.result?.user !== 'string') {
    return { ok: false, reason: 'refused', message: body?.msg ?? `the server answered ${res.status}` };
  }
  return { ok: true, pairing: { code: parsed.data, user: body.result.user, until: Date.now() + PAIRING_CODE_TTL_MS } };
}
