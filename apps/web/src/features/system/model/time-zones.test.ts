import { describe, expect, it } from 'vitest';
import { offsetText, timeZoneNames, timeZoneOptions } from './time-zones.ts';

describe('organization time zones', () => {
  it('lists UTC first, then the browser’s zones, and keeps a saved zone the browser lacks', () => {
    const names = timeZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names).toContain('Europe/Moscow');
    expect(names.filter((n) => n === 'UTC')).toHaveLength(1);
    expect(timeZoneNames('Etc/GMT+5')).toContain('Etc/GMT+5');
  });

  it('labels each zone with its offset at the given time', () => {
    expect(offsetText(180)).toBe('+03:00');
    expect(offsetText(-330)).toBe('-05:30');
    expect(offsetText(0)).toBe('±00:00');
    const winter = new Date('2026-01-15T12:00:00Z');
    const options = timeZoneOptions(undefined, winter);
    expect(options[0]).toEqual({ value: 'UTC', label: 'UTC' });
    expect(options.find((o) => o.value === 'Europe/Berlin')?.label).toBe(
      'Europe/Berlin (UTC+01:00)',
    );
    expect(options.find((o) => o.value === 'Asia/Shanghai')?.label).toBe(
      'Asia/Shanghai (UTC+08:00)',
    );
  });
});
