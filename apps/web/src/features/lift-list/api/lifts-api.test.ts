import { describe, expect, it } from 'vitest';
import type { LiftListItem } from '@liftlink/protocol';
import { createQueryClient } from '../../../lib/query-client.ts';
import { liftListItem } from '../../../test/lift-fixtures.ts';
import { liftKeys } from '../../../lib/lifts.ts';
import { fleetPatch } from '../components/use-fleet-patches.ts';
import {
  INITIAL_LIFT_QUERY,
  listParams,
  patchCachedLifts,
  type LiftPage,
} from './lifts-api.ts';

const item = (id: string, patch: Partial<LiftListItem> = {}): LiftListItem =>
  liftListItem({ id, deviceNo: id.toUpperCase(), ...patch });

describe('fleet list', () => {
  it('asks the server for one page, filtered and sorted there', () => {
    expect(
      listParams({
        ...INITIAL_LIFT_QUERY,
        page: 3,
        keyword: '  DEMO ',
        state: 'offline',
        kind: 'verticalHydraulic',
        sort: 'floor',
        order: 'desc',
      }),
    ).toEqual({
      page: 3,
      pageSize: 20,
      keyword: 'DEMO',
      kind: 'verticalHydraulic',
      online: 'false',
      fault: undefined,
      sort: 'floor',
      order: 'desc',
    });
    expect(listParams({ ...INITIAL_LIFT_QUERY, state: 'fault' })).toMatchObject({
      online: undefined,
      fault: 'true',
    });
  });

  it('turns live fleet messages into row changes', () => {
    expect(fleetPatch({ type: 'presence', liftId: 'a', online: false, ts: 't' })).toEqual({
      online: false,
    });
    expect(
      fleetPatch({
        type: 'fleetStatus',
        liftId: 'a',
        mode: 'lockout',
        floor: null,
        activeFault: 'EC',
      }),
    ).toEqual({
      mode: 'lockout',
      floor: null,
      activeFault: 'EC',
    });
  });

  it('changes only the rows of cached pages, and keeps a page untouched when nothing changed', () => {
    const client = createQueryClient();
    const key = liftKeys.list(INITIAL_LIFT_QUERY);
    const page: LiftPage = { list: [item('a'), item('b')], total: 10_000 };
    client.setQueryData(key, page);
    patchCachedLifts(
      client,
      new Map([
        ['zz', { online: false }],
        ['a', { online: true }],
      ]),
    );
    expect(client.getQueryData(key)).toBe(page);
    patchCachedLifts(client, new Map([['b', { online: false, activeFault: 'EA' }]]));
    const next = client.getQueryData<LiftPage>(key)!;
    expect(next).not.toBe(page);
    expect(next.list[0]).toBe(page.list[0]);
    expect(next.list[1]).toMatchObject({ id: 'b', online: false, activeFault: 'EA' });
    expect(next.total).toBe(10_000);
  });
});
