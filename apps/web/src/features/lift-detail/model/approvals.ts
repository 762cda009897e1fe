import type { ApprovalView } from '@liftlink/protocol';

/** Pending requests first (the one expiring soonest on top), then the decided ones, newest first. */
function order(a: ApprovalView, b: ApprovalView): number {
  const pendingA = a.state === 'pending' ? 0 : 1;
  const pendingB = b.state === 'pending' ? 0 : 1;
  if (pendingA !== pendingB) return pendingA - pendingB;
  if (pendingA === 0) return Date.parse(a.expiresAt) - Date.parse(b.expiresAt);
  return Date.parse(b.requestedAt) - Date.parse(a.requestedAt);
}

export function sortApprovals(list: readonly ApprovalView[]): ApprovalView[] {
  return [...list].sort(order);
}

/** The list after a live `approval` message or an answer: that request replaced or added. */
export function mergeApproval(
  list: readonly ApprovalView[] | undefined,
  approval: ApprovalView,
): ApprovalView[] {
  const rest = (list ?? []).filter((a) => a.id !== approval.id);
  return sortApprovals([...rest, approval]);
}

/**
 * The state shown: a pending request whose window passed reads as expired before the
 * server's message says so (nobody can approve it any more).
 */
export function shownState(approval: ApprovalView, now: number): ApprovalView['state'] {
  if (approval.state === 'pending' && Date.parse(approval.expiresAt) <= now) return 'expired';
  return approval.state;
}

/** mm:ss left of a request's window. */
export function timeLeft(approval: ApprovalView, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(approval.expiresAt) - now) / 1000));
  const mm = Math.floor(seconds / 60);
  const ss = seconds % 60;
  return `${mm}:${String(ss).padStart(2, '0')}`;
}
