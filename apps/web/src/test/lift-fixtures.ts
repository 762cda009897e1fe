import type { LiftListItem } from '@liftlink/protocol';

/** A list row of a standing, online 2-floor inclined rack lift; tests change what they need. */
export function liftListItem(
  patch: Partial<LiftListItem> & Pick<LiftListItem, 'id'>,
): LiftListItem {
  return {
    deviceNo: 'DEMO-0001',
    alias: '',
    kind: 'inclinedStraightRack',
    online: true,
    mode: 'standby',
    floor: 1,
    floors: 2,
    firmware: '1.0.0',
    activeFault: null,
    lastSeenAt: null,
    location: {},
    ...patch,
  };
}
