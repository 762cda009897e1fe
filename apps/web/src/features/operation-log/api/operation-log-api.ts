import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { LIFT_AUDIT_ACTIONS, type OperationLogEntry } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/** One audited operation (`GET /auth/access/operation-log`). */
export type { OperationLogEntry };

export interface OperationLogFilter {
  liftId: string | null;
  username: string;
  action: string | null;
  from: string | null;
  to: string | null;
}

export const EMPTY_OPERATION_FILTER: OperationLogFilter = {
  liftId: null,
  username: '',
  action: null,
  from: null,
  to: null,
};

/** The audited actions the log shows: those on a lift (commands, configuration, lift edits, the factory bench). */
export const OPERATION_ACTIONS = LIFT_AUDIT_ACTIONS;

export const OPERATION_LOG_PATH = '/auth/access/operation-log';
export const OPERATION_LOG_EXPORT_PATH = '/auth/access/operation-log/export';

export function operationLogParams(filter: OperationLogFilter) {
  return {
    liftId: filter.liftId ?? undefined,
    username: filter.username.trim() || undefined,
    action: filter.action ?? undefined,
    from: filter.from ?? undefined,
    to: filter.to ?? undefined,
  };
}

export function useOperationLog(filter: OperationLogFilter, page: number, pageSize: number) {
  const query = { ...operationLogParams(filter), page, pageSize };
  return useQuery({
    queryKey: ['operationLog', query],
    queryFn: ({ signal }) =>
      http.get<{ list: OperationLogEntry[]; total: number }>(OPERATION_LOG_PATH, query, { signal }),
    placeholderData: keepPreviousData,
  });
}
