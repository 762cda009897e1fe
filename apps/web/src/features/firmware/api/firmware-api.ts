import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FirmwarePackage,
  FirmwarePackageCreate,
  FirmwarePackageState,
  FirmwareSigningKey,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

export type { FirmwarePackage, FirmwarePackageState, FirmwareSigningKey };

/** Firmware packages (packages/protocol/src/api/firmware.ts, docs/firmware.md). */
export const FIRMWARE_BASE = '/auth/access/firmware/packages';
export const SIGNING_KEY_PATH = '/manufacture/firmware/signing-key';
const base = FIRMWARE_BASE;

export const firmwareKeys = {
  lists: ['firmware', 'list'] as const,
  list: (state: FirmwarePackageState | undefined) => ['firmware', 'list', state ?? 'all'] as const,
  signingKey: ['firmware', 'signing-key'] as const,
};

export const firmwareApi = {
  list: (state: FirmwarePackageState | undefined, signal?: AbortSignal) =>
    http.get<{ list: FirmwarePackage[] }>(base, { state }, { signal }),
  create: (body: FirmwarePackageCreate) => http.post<FirmwarePackage>(`${base}/create`, body),
  /** The image as the raw body; no time-out (a large image over a slow link). */
  upload: (id: string, file: Blob) => http.upload<FirmwarePackage>(`${base}/upload`, file, { id }),
  withdraw: (id: string) => http.post<FirmwarePackage>(`${base}/withdraw`, { id }),
  signingKey: (signal?: AbortSignal) =>
    http.get<FirmwareSigningKey>(SIGNING_KEY_PATH, undefined, { signal }),
};

export function useFirmwarePackages(state: FirmwarePackageState | undefined) {
  return useQuery({
    queryKey: firmwareKeys.list(state),
    queryFn: ({ signal }) => firmwareApi.list(state, signal),
  });
}

/** The organization's signing key: asked only when the user may see it (`manufacture.add`). */
export function useSigningKey(enabled: boolean) {
  return useQuery({
    queryKey: firmwareKeys.signingKey,
    queryFn: ({ signal }) => firmwareApi.signingKey(signal),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Refreshes every list (any state filter) once a package changed. */
export function useRefreshPackages() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: firmwareKeys.lists });
}

export function useWithdrawPackage() {
  const refresh = useRefreshPackages();
  return useMutation({
    mutationFn: (id: string) => firmwareApi.withdraw(id),
    onSettled: () => refresh(),
  });
}
