import { useQueryClient } from '@tanstack/react-query';
import type { ApprovalView } from '@liftlink/protocol';
import { useLiftLive } from '../../../lib/live/use-live.ts';
import {
  controlApi,
  controlKeys,
  useApprovalList,
  type ApprovalRequest,
} from '../api/control-api.ts';
import { mergeApproval, sortApprovals } from '../model/approvals.ts';
import { useOnReconnect } from './use-on-reconnect.ts';

export interface Approvals {
  list: ApprovalView[];
  loading: boolean;
  error: unknown;
  request: (body: ApprovalRequest) => Promise<ApprovalView>;
  reject: (approval: ApprovalView) => Promise<void>;
  withdraw: (approval: ApprovalView) => Promise<void>;
  /** Reads the list again (after approving: the answer is the command's, not the request's). */
  refresh: () => void;
}

/**
 * The lift's requests for two-person approval, kept current by live `approval` messages.
 * `onApproved` hears when a request of this user was approved (its command then runs).
 */
export function useApprovals(
  liftId: string,
  userId: string | null,
  onApproved: (approval: ApprovalView) => void,
): Approvals {
  const client = useQueryClient();
  const query = useApprovalList(liftId);
  const key = controlKeys.approvals(liftId);
  const put = (approval: ApprovalView) =>
    client.setQueryData<{ list: ApprovalView[] }>(key, (old) => ({
      list: mergeApproval(old?.list, approval),
    }));
  const refresh = () => void client.invalidateQueries({ queryKey: key });

  useLiftLive(liftId, (message) => {
    if (message.type !== 'approval') return;
    put(message.approval);
    if (message.approval.requesterId === userId && message.approval.state === 'approved')
      onApproved(message.approval);
  });

  useOnReconnect(() => void client.invalidateQueries({ queryKey: controlKeys.approvals(liftId) }));

  const decide =
    (call: (id: string) => Promise<ApprovalView>) => async (approval: ApprovalView) => {
      try {
        put(await call(approval.id));
      } catch (error) {
        // Decided meanwhile by someone else, say: the list shows how it stands.
        refresh();
        throw error;
      }
    };

  return {
    list: sortApprovals(query.data?.list ?? []),
    loading: query.isLoading,
    error: query.error,
    request: async (body) => {
      const approval = await controlApi.requestApproval(body);
      put(approval);
      return approval;
    },
    reject: decide(controlApi.reject),
    withdraw: decide(controlApi.withdraw),
    refresh,
  };
}
