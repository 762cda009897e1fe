import type { VisitValues } from './checklist.ts';

/**
 * A visit form that survives a reload (docs/service.md, "Maintenance plans and visits"): what
 * was entered on a lift's visit screen, kept in this browser per lift until the server has
 * recorded the visit. It carries the form's idempotency key and start time, so a visit sent
 * before the reload and sent again after it is still one visit (the server answers the first).
 */
export interface VisitDraft {
  /** The visit form's idempotency key: made once, kept across retries and reloads. */
  idempotencyKey: string;
  startedAt: string;
  values: VisitValues;
}

const PREFIX = 'liftlink.visitDraft.';

/**
 * A new visit form's key: a UUID, which the server's `idempotencyKeySchema` accepts.
 * `crypto.randomUUID` exists only on secure pages; a page served over plain HTTP on a site
 * network builds a version 4 UUID from `getRandomValues`.
 */
export function newVisitKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A fresh form: a new key, started now, nothing entered. */
export function freshDraft(): VisitDraft {
  return {
    idempotencyKey: newVisitKey(),
    startedAt: new Date().toISOString(),
    values: { answers: {}, partsUsed: [], incidentIds: [] },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a user's draft for a lift is kept: one per user and lift. */
export function draftSlot(userId: string, liftId: string): string {
  return `${userId}.${liftId}`;
}

/** The draft kept in `slot` (draftSlot), or null (none, or not one this page wrote: storage is anyone's). */
export function readDraft(slot: string): VisitDraft | null {
  try {
    const raw = localStorage.getItem(PREFIX + slot);
    const draft: unknown = raw ? JSON.parse(raw) : null;
    if (
      !isObject(draft) ||
      typeof draft.idempotencyKey !== 'string' ||
      typeof draft.startedAt !== 'string' ||
      !isObject(draft.values) ||
      !isObject(draft.values.answers)
    )
      return null;
    const values = draft.values;
    return {
      idempotencyKey: draft.idempotencyKey,
      startedAt: draft.startedAt,
      values: {
        answers: values.answers as VisitValues['answers'],
        ...(typeof values.findings === 'string' ? { findings: values.findings } : {}),
        partsUsed: Array.isArray(values.partsUsed)
          ? values.partsUsed.filter((p): p is string => typeof p === 'string')
          : [],
        incidentIds: Array.isArray(values.incidentIds)
          ? values.incidentIds.filter((id): id is number => typeof id === 'number')
          : [],
        ...(typeof values.rootCause === 'string' ? { rootCause: values.rootCause } : {}),
      },
    };
  } catch {
    return null;
  }
}

/** Keeps the form as it is now (a full or unavailable storage keeps nothing; the form goes on). */
export function saveDraft(slot: string, draft: VisitDraft): void {
  try {
    localStorage.setItem(PREFIX + slot, JSON.stringify(draft));
  } catch {
    // Private mode or a full storage: the visit can still be sent, it just will not survive a reload.
  }
}

export function clearDraft(slot: string): void {
  try {
    localStorage.removeItem(PREFIX + slot);
  } catch {
    // Nothing was kept.
  }
}
