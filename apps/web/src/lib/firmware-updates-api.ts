import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isOpenLiftUpdate, type LiftFirmwareUpdate } from '@liftlink/protocol';
import { http } from './http.ts';
import { useLiftLive } from './live/use-live.ts';

export type { LiftFirmwareUpdate };

/**
 * What the makers' firmware campaigns will do, are doing and did to the user's lifts
 * (packages/protocol/src/api/lift-firmware-updates.ts): the firmware updates page and the
 * lift page's card. Needs `lift.query` only, no firmware permission.
 */
export const LIFT_FIRMWARE_UPDATES_PATH = '/auth/access/lift/firmware-updates';
/** How often the list is asked again while an update may still change. */
export const FIRMWARE_UPDATES_POLL_MS = 10_000;

export const firmwareUpdateKeys = {
  all: ['firmware-updates'] as const,
  of: (liftId: string | undefined) => ['firmware-updates', liftId ?? 'all'] as const,
};

export function fetchLiftFirmwareUpdates(
  liftId: string | undefined,
  signal?: AbortSignal,
): Promise<{ list: LiftFirmwareUpdate[] }> {
  return http.get<{ list: LiftFirmwareUpdate[] }>(
    LIFT_FIRMWARE_UPDATES_PATH,
    liftId ? { liftId } : undefined,
    { signal },
  );
}

/**
 * The updates of the user's lifts, or of one lift: asked again every 10 s while one is open
 * (the rollout moves on by itself), and at once when the watched lift reports on its update
 * over the live socket.
 */
export function useLiftFirmwareUpdates(liftId?: string) {
  const client = useQueryClient();
  useLiftLive(liftId, (message) => {
    if (message.type === 'firmware')
      void client.invalidateQueries({ queryKey: firmwareUpdateKeys.of(liftId) });
  });
  return useQuery({
    queryKey: firmwareUpdateKeys.of(liftId),
    queryFn: ({ signal }) => fetchLiftFirmwareUpdates(liftId, signal),
    refetchInterval: (query) =>
      query.state.data?.list.some(isOpenLiftUpdate) ? FIRMWARE_UPDATES_POLL_MS : false,
  });
}
