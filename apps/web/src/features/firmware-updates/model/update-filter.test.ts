import { describe, expect, it } from 'vitest';
import { endedOf, updateOf } from '../../../components/firmware-update/firmware-update-fixtures.ts';
import { emptyReason, filterUpdates, isUpdateShow } from './update-filter.ts';

const open = updateOf({ deviceNo: 'DEMO-0001', alias: 'Station hall' });
const other = updateOf({ liftId: 'l2', deviceNo: 'DEMO-0002', alias: null });
const ended = endedOf({ liftId: 'l3', deviceNo: 'DEMO-0003', alias: 'Library' });
const list = [open, other, ended];

describe('which firmware updates the page shows', () => {
  it('shows the open ones, or all with those that ended', () => {
    expect(filterUpdates(list, 'open', '')).toEqual([open, other]);
    expect(filterUpdates(list, 'all', '')).toEqual(list);
  });

  it('narrows to lifts whose device number or name holds the search, in any case', () => {
    expect(filterUpdates(list, 'all', ' demo-0002 ')).toEqual([other]);
    expect(filterUpdates(list, 'all', 'HALL')).toEqual([open]);
    expect(filterUpdates(list, 'open', 'library')).toEqual([]);
  });

  it('says why nothing is shown', () => {
    expect(emptyReason([], 'open', '')).toBe('none');
    expect(emptyReason([], 'all', 'x')).toBe('none');
    expect(emptyReason([ended], 'open', '')).toBe('noneOpen');
    expect(emptyReason(list, 'all', 'nothing')).toBe('search');
  });

  it('reads the filter from the address', () => {
    expect([
      isUpdateShow('open'),
      isUpdateShow('all'),
      isUpdateShow('x'),
      isUpdateShow(null),
    ]).toEqual([true, true, false, false]);
  });
});
