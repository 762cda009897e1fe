import type { LeaseState, LeaseView, LiveLeaseMessage } from '@liftlink/protocol';

/** Who controls the lift as this user sees it. */
export type ControlHolder = 'me' | 'other' | 'nobody';

export interface ControlView {
  holder: ControlHolder;
  lease: LeaseView | null;
  /** After local use: until when remote control is paused (ms), while that lies ahead. */
  localUntil: number | null;
}

/**
 * The lease as the page shows it. The server's word on who holds it counts (it sends a live
 * message when a lease expires), so the client's clock never decides that; only the local-use
 * pause is a countdown.
 */
export function controlView(
  state: LeaseState | undefined,
  userId: string | null,
  now: number,
): ControlView {
  const lease = state?.lease ?? null;
  const until = state?.localUntil ? Date.parse(state.localUntil) : NaN;
  return {
    holder: !lease ? 'nobody' : lease.holderId === userId ? 'me' : 'other',
    lease,
    localUntil: Number.isFinite(until) && until > now ? until : null,
  };
}

/** Why this user's lease ended when someone else or the lift ended it (shown until closed). */
export interface LeaseNotice {
  reason: 'takenOver' | 'localControl' | 'expired';
  /** Who took it over. */
  byName: string | null;
  localUntil: string | null;
}

/** The notice a live `lease` message means for `userId`, or null (their own release says nothing). */
export function leaseNoticeOf(
  message: LiveLeaseMessage,
  userId: string | null,
): LeaseNotice | null {
  if (!userId || message.endedHolderId !== userId || !message.ended) return null;
  if (message.ended === 'released') return null;
  return {
    reason: message.ended,
    byName: message.ended === 'takenOver' ? (message.lease?.holderName ?? null) : null,
    localUntil: message.localUntil,
  };
}

/** Whole seconds left until `until` (at least 0), for countdowns. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}
