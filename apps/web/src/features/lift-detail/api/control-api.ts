import { useQuery } from '@tanstack/react-query';
import {
  CONTROL_LEASE_MS,
  type ApprovalView,
  type CommandName,
  type CommandResult,
  type LeaseState,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/**
 * Safe remote control (docs/remote-control.md): the lift's control lease, cancelling a
 * command in its cancel window, two-person approval.
 */
const base = '/auth/access/lift';

export const controlKeys = {
  lease: (liftId: string) => ['lifts', 'lease', liftId] as const,
  approvals: (liftId: string) => ['lifts', 'approvals', liftId] as const,
};

export interface ApprovalRequest {
  liftId: string;
  command: CommandName;
  args: Record<string, unknown>;
  reason: string;
  idempotencyKey: string;
}

export const controlApi = {
  lease: (liftId: string, signal?: AbortSignal) =>
    http.get<LeaseState>(`${base}/lease`, { liftId }, { signal }),
  take: (liftId: string, takeOver: boolean) =>
    http.post<LeaseState>(`${base}/lease/take`, { liftId, takeOver }),
  renew: (liftId: string, epoch: number) =>
    http.post<LeaseState>(`${base}/lease/renew`, { liftId, epoch }),
  /** `keepalive`: sent as the page closes, nobody waits for the answer. */
  release: (liftId: string, epoch: number, keepalive = false) =>
    http.post<LeaseState>(
      `${base}/lease/release`,
      { liftId, epoch },
      keepalive ? { keepalive, quiet: true } : undefined,
    ),
  /** Cancels the click's command while it waits in its cancel window. */
  cancel: (liftId: string, idempotencyKey: string) =>
    http.post<CommandResult>(`${base}/command/cancel`, { liftId, idempotencyKey }),
  approvals: (liftId: string, signal?: AbortSignal) =>
    http.get<{ list: ApprovalView[] }>(`${base}/approval/list`, { liftId }, { signal }),
  requestApproval: (body: ApprovalRequest) =>
    http.post<ApprovalView>(`${base}/approval/request`, body),
  approve: (approvalId: string) =>
    http.post<CommandResult>(`${base}/approval/approve`, { approvalId }),
  reject: (approvalId: string) =>
    http.post<ApprovalView>(`${base}/approval/reject`, { approvalId }),
  withdraw: (approvalId: string) =>
    http.post<ApprovalView>(`${base}/approval/withdraw`, { approvalId }),
};

/**
 * Who holds the lift's lease. Live `lease` messages keep it current; while another user
 * holds it, it is read again once a lease's length as well, in case a message was missed.
 */
export function useLeaseState(liftId: string, userId: string | null) {
  return useQuery({
    queryKey: controlKeys.lease(liftId),
    queryFn: ({ signal }) => controlApi.lease(liftId, signal),
    refetchInterval: (query) => {
      const lease = query.state.data?.lease;
      return lease && lease.holderId !== userId ? CONTROL_LEASE_MS : false;
    },
  });
}

/** While a request waits for its decision, the list is read again this often. */
const PENDING_APPROVAL_RECHECK_MS = 10_000;

/**
 * The lift's pending requests for approval and those decided in the last hour. Live
 * `approval` messages keep it current; while one is pending it is also read again every
 * few seconds, as the lease is, so a decision whose message was missed, or overwritten by
 * an answer read before it, still shows.
 */
export function useApprovalList(liftId: string) {
  return useQuery({
    queryKey: controlKeys.approvals(liftId),
    queryFn: ({ signal }) => controlApi.approvals(liftId, signal),
    refetchInterval: (query) => (query.state.data?.list.some((a) => a.state === 'pending') ? PENDING_APPROVAL_RECHECK_MS : false),
  });
}
