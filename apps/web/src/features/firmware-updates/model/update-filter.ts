import { isOpenLiftUpdate, type LiftFirmwareUpdate } from '@liftlink/protocol';

/** Which updates the page shows: those that may still change the lifts, or those that ended too. */
export type UpdateShow = 'open' | 'all';
export const UPDATE_SHOWS: readonly UpdateShow[] = ['open', 'all'];

export const isUpdateShow = (value: string | null): value is UpdateShow =>
  (UPDATE_SHOWS as readonly (string | null)[]).includes(value);

/** The updates shown: open ones (or all), of the lifts whose device number or name holds `search`. */
export function filterUpdates(
  list: readonly LiftFirmwareUpdate[],
  show: UpdateShow,
  search: string,
): LiftFirmwareUpdate[] {
  const needle = search.trim().toLocaleLowerCase();
  return list.filter(
    (u) =>
      (show === 'all' || isOpenLiftUpdate(u)) &&
      (!needle ||
        u.deviceNo.toLocaleLowerCase().includes(needle) ||
        (u.alias ?? '').toLocaleLowerCase().includes(needle)),
  );
}

/** Why nothing is shown: no update at all, none matches the search, or only ended ones exist. */
export type EmptyReason = 'none' | 'search' | 'noneOpen';

export function emptyReason(
  list: readonly LiftFirmwareUpdate[],
  show: UpdateShow,
  search: string,
): EmptyReason {
  if (list.length === 0) return 'none';
  if (search.trim()) return 'search';
  return show === 'open' ? 'noneOpen' : 'none';
}
