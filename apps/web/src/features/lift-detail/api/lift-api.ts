import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CommandName,
  CommandRecord,
  CommandResult,
  ConfigLogEntry,
  ConfigReadResult,
  DailyStat,
  IotInfo,
  LiftConfig,
  LiftInfo,
  RunLogEntry,
  Sample,
} from '@liftlink/protocol';
import { http, type Query } from '../../../lib/http.ts';
import { liftKeys } from '../../../lib/lifts.ts';

// The answers' shapes are the protocol's (the server's response schemas).
export type { CommandRecord, ConfigLogEntry, ConfigReadResult, DailyStat, Sample };

const base = '/auth/access/lift';

export const liftDetailKeys = {
  info: liftKeys.info,
  runLog: (liftId: string) => ['lifts', 'runLog', liftId] as const,
  configLogs: (liftId: string) => ['lifts', 'configLogs', liftId] as const,
  commands: (liftId: string) => ['lifts', 'commands', liftId] as const,
  daily: (liftId: string, days: number) => ['lifts', 'daily', liftId, days] as const,
  samples: (liftId: string, hours: number) => ['lifts', 'samples', liftId, hours] as const,
};

export const liftApi = {
  info: (liftId: string, signal?: AbortSignal) =>
    http.post<LiftInfo>(`${base}/getInfo`, { liftId }, { signal }),
  /** `idempotencyKey`: one per click, reused by that click's retries (the server sends it once). */
  control: (
    liftId: string,
    command: CommandName,
    args: Record<string, unknown>,
    idempotencyKey: string,
  ) => http.post<CommandResult>(`${base}/control`, { liftId, command, args, idempotencyKey }),
  readConfig: (liftId: string) => http.post<ConfigReadResult>(`${base}/config/read`, { liftId }),
  writeConfig: (body: {
    liftId: string;
    config: LiftConfig;
    version: number;
    confirmReconfigure?: boolean;
  }) => http.post<CommandResult>(`${base}/run/setting/update`, body),
  updateIot: (body: { liftId: string; iotInfo: IotInfo }) =>
    http.post<null>(`${base}/iot/update`, body),
  configLogs: (liftId: string, page: number, pageSize: number, signal?: AbortSignal) =>
    http.get<{ list: ConfigLogEntry[]; total: number }>(
      `${base}/config/logs`,
      { liftId, page, pageSize },
      { signal },
    ),
  commands: (liftId: string, signal?: AbortSignal) =>
    http.get<{ list: CommandRecord[] }>(`${base}/commands`, { liftId }, { signal }),
  runLog: (query: Query, signal?: AbortSignal) =>
    http.get<{ list: RunLogEntry[]; total: number }>(`${base}/run/logs/get`, query, { signal }),
  daily: (liftId: string, days: number, signal?: AbortSignal) =>
    http.get<{ list: DailyStat[] }>(`${base}/stats/daily`, { liftId, days }, { signal }),
  samples: (liftId: string, hours: number, signal?: AbortSignal) =>
    http.get<{ list: Sample[] }>(`${base}/samples`, { liftId, hours }, { signal }),
};

export const RUN_LOG_EXPORT_PATH = `${base}/run/logs/export`;

export function useLiftInfo(liftId: string) {
  return useQuery({
    queryKey: liftDetailKeys.info(liftId),
    queryFn: ({ signal }) => liftApi.info(liftId, signal),
  });
}

export function useCommandHistory(liftId: string) {
  return useQuery({
    queryKey: liftDetailKeys.commands(liftId),
    queryFn: ({ signal }) => liftApi.commands(liftId, signal),
  });
}

export function useConfigLogs(liftId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...liftDetailKeys.configLogs(liftId), page, pageSize],
    queryFn: ({ signal }) => liftApi.configLogs(liftId, page, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}

/** Saves the lift's IoT details; the lift and its configuration history are read again. */
export function useIotUpdate(liftId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (iotInfo: IotInfo) => liftApi.updateIot({ liftId, iotInfo }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: liftDetailKeys.info(liftId) }),
        client.invalidateQueries({ queryKey: liftDetailKeys.configLogs(liftId) }),
      ]),
  });
}
