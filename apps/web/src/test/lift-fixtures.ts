import { LIFT_PERMISSION_IDS, PERMISSION_CHECKS, type LiftListItem } from '@liftlink/protocol';

/** Everything on a lift, as the server answers the administrator. */
export const FULL_LIFT_ACCESS: LiftListItem['access'] = {
  allowed: PERMISSION_CHECKS.filter((c) => (LIFT_PERMISSION_IDS as readonly string[]).includes(c.split('.')[0]!)),
  configRole: 'manufacturer',
};

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
    access: FULL_LIFT_ACCESS,
    ...patch,
  };
}
