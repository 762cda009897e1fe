import { useQuery } from '@tanstack/react-query';
import type {
  FirmwareSigningKey,
  CommandResult,
  ConfigLogEntry,
  DocumentView,
  ManufactureLift,
  NewIotCredentials,
  PairingCode,
  SERIAL_LOG_STEPS,
  UpdateLiftIotInfo,
  LiftConfig,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

export type { ConfigLogEntry };

const base = '/manufacture/lift';

export interface ConfigBody {
  liftId: string;
  config: LiftConfig;
  version: number;
  confirmReconfigure?: boolean;
}

export const manufactureApi = {
  lookup: (query: { deviceNo?: string; controllerSerial?: string }) =>
    http.get<{ lift: ManufactureLift | null; deviceNoTaken: boolean }>(`${base}/lookup`, query),
  updateIotInfo: (body: UpdateLiftIotInfo) =>
    http.post<{ liftId: string; lift: ManufactureLift }>(`${base}/updateLiftIotInfo`, body),
  getNewIot: (deviceNo: string) => http.get<NewIotCredentials>(`${base}/getNewIot`, { deviceNo }),
  resetIot: (liftId: string) => http.post<null>(`${base}/resetIot`, { liftId }),
  /** The organization's firmware signing key, public half: what the bench writes into each controller. */
  firmwareSigningKey: () => http.get<FirmwareSigningKey>('/manufacture/firmware/signing-key'),
  setLiftConfig: (body: ConfigBody) => http.post<CommandResult>(`${base}/setLiftConfig`, body),
  setRunConfig: (body: ConfigBody) => http.post<CommandResult>(`${base}/run/config/set`, body),
  configLogs: (liftId: string, page: number, signal?: AbortSignal) =>
    http.get<{ list: ConfigLogEntry[]; total: number }>(
      `${base}/getConfigLogs`,
      { liftId, page, pageSize: 10 },
      { signal },
    ),
  serialLog: (body: {
    step: (typeof SERIAL_LOG_STEPS)[number];
    result: 'ok' | 'failed';
    controllerSerial: string;
    deviceNo: string | null;
    detail?: Record<string, unknown>;
  }) => http.post<null>(`${base}/serial/log`, body),
  pairCode: () => http.post<PairingCode>('/manufacture/bridge/pair', {}),
  documents: (signal?: AbortSignal) =>
    http.get<{ list: DocumentView[] }>('/api/document/list', undefined, { signal }),
  deleteDocument: (id: string) => http.post<null>('/api/document/delete', { id }),
};

export const manufactureKeys = {
  documents: ['manufacture', 'documents'] as const,
  configLogs: (liftId: string, page: number) =>
    ['manufacture', 'configLogs', liftId, page] as const,
};

export function useDocuments(enabled = true) {
  return useQuery({
    queryKey: manufactureKeys.documents,
    queryFn: ({ signal }) => manufactureApi.documents(signal),
    enabled,
  });
}

export function useConfigLogs(liftId: string | null, page: number) {
  return useQuery({
    queryKey: manufactureKeys.configLogs(liftId ?? '', page),
    queryFn: ({ signal }) => manufactureApi.configLogs(liftId ?? '', page, signal),
    enabled: liftId !== null,
  });
}

/** Uploads a file as it is (the body is the file; name and kind in the query). */
export function uploadDocument(file: File, kind: DocumentView['kind']): Promise<DocumentView> {
  return http.upload<DocumentView>('/api/document/upload', file, { name: file.name, kind });
}
