import { describe, expect, it } from 'vitest';
import { eventText, type RunLogEntry } from '@liftlink/protocol';
import {
  EMPTY_FILTER,
  matchesFilter,
  mergeLiveEntries,
  runLogParams,
  runLogText,
} from './run-log.ts';

const entry = (id: number, code: string, ts: string, fault = false): RunLogEntry => ({
  id,
  ts,
  code,
  text: code,
  fault,
  floor: null,
});

describe('run log filters', () => {
  it('asks the server for the class, codes and time range', () => {
    const params = runLogParams(
      'lift-1',
      { from: '2026-01-01T00:00:00.000Z', to: null, eventClass: 'fault', codes: ['EA', 'EC'] },
      2,
      50,
      'ru-RU',
    );
    expect(params).toEqual({
      liftId: 'lift-1',
      page: 2,
      pageSize: 50,
      from: '2026-01-01T00:00:00.000Z',
      to: undefined,
      class: 'fault',
      codes: 'EA,EC',
      lang: 'ru-RU',
    });
    expect(runLogParams('lift-1', EMPTY_FILTER, 1, 20, 'zh-CN')).toMatchObject({
      class: undefined,
      codes: undefined,
    });
  });

  it('lets a live entry onto the page only when the filter would show it', () => {
    const summon = entry(1, 'RZY2', '2026-03-01T08:00:00.000Z');
    const stall = entry(2, 'EC', '2026-03-01T08:00:05.000Z', true);
    expect(matchesFilter(summon, EMPTY_FILTER)).toBe(true);
    expect(matchesFilter(summon, { ...EMPTY_FILTER, eventClass: 'fault' })).toBe(false);
    expect(matchesFilter(stall, { ...EMPTY_FILTER, eventClass: 'fault' })).toBe(true);
    expect(matchesFilter(stall, { ...EMPTY_FILTER, eventClass: 'state' })).toBe(false);
    expect(matchesFilter(summon, { ...EMPTY_FILTER, codes: ['RZY2', 'RZD2'] })).toBe(true);
    expect(matchesFilter(stall, { ...EMPTY_FILTER, codes: ['RZY2', 'RZD2'] })).toBe(false);
    expect(matchesFilter(summon, { ...EMPTY_FILTER, to: '2026-03-01T07:59:59.000Z' })).toBe(false);
    expect(matchesFilter(summon, { ...EMPTY_FILTER, from: '2026-03-01T08:00:01.000Z' })).toBe(
      false,
    );
  });

  it('puts live entries on top without duplicates and keeps one page', () => {
    const page = [
      entry(5, 'RZGU', '2026-03-01T08:00:05.000Z'),
      entry(4, 'RZY2', '2026-03-01T08:00:04.000Z'),
    ];
    const live = [
      entry(6, 'RZD2', '2026-03-01T08:00:40.000Z'),
      entry(5, 'RZGU', '2026-03-01T08:00:05.000Z'),
      entry(6, 'RZD2', '2026-03-01T08:00:40.000Z'),
    ];
    const merged = mergeLiveEntries(page, live, 2);
    expect(merged.added).toBe(1);
    expect(merged.list.map((e) => e.id)).toEqual([6, 5]);
  });

  it('writes the entries as tab-separated text with a header line', () => {
    const text = runLogText(
      [entry(1, 'RZD2', '2026-03-01T08:00:40.000Z')],
      { time: 'Time', code: 'Code', meaning: 'Meaning', floor: 'Floor' },
      (code) => (code === 'RZD2' ? 'Arrived at floor 2' : code),
      (ts) => ts.slice(11, 19),
    );
    expect(text).toBe('Time\tCode\tMeaning\tFloor\r\n08:00:40\tRZD2\tArrived at floor 2\t\r\n');
  });

  it('says why a lift went offline in the text file', () => {
    const offline: RunLogEntry = {
      ...entry(2, 'OFFLINE', '2026-03-01T08:05:00.000Z'),
      reason: 'heartbeatSilence',
    };
    const text = runLogText(
      [offline],
      { time: 'Time', code: 'Code', meaning: 'Meaning', floor: 'Floor' },
      (code, reason) => eventText(code, 'en-US', reason),
      (ts) => ts.slice(11, 19),
    );
    expect(text).toContain('08:05:00\tOFFLINE\tDevice offline (silent past the heartbeat)\t');
  });
});
