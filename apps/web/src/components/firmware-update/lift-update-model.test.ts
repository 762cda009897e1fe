import { describe, expect, it } from 'vitest';
import { clockHour, releaseNotesFor, timeZoneName } from './lift-update-model.ts';

describe('firmware update texts', () => {
  it('picks the release notes in the user’s language, else English, else any language that has some', () => {
    const notes = { 'zh-CN': '修复', 'en-US': 'Fixes', 'ru-RU': '' };
    expect(releaseNotesFor(notes, 'zh-CN')).toEqual({ language: 'zh-CN', text: '修复' });
    expect(releaseNotesFor(notes, 'ru-RU')).toEqual({ language: 'en-US', text: 'Fixes' });
    expect(releaseNotesFor({ ...notes, 'en-US': '  ' }, 'ru-RU')).toEqual({
      language: 'zh-CN',
      text: '修复',
    });
    expect(releaseNotesFor({ 'zh-CN': '', 'en-US': '', 'ru-RU': ' ' }, 'en-US')).toBeNull();
  });

  it('writes hours as a clock does and time zones as people read them', () => {
    expect([clockHour(2), clockHour(5), clockHour(23), clockHour(0)]).toEqual([
      '02:00',
      '05:00',
      '23:00',
      '00:00',
    ]);
    expect(timeZoneName('America/New_York')).toBe('America/New York');
    expect(timeZoneName('Europe/Moscow')).toBe('Europe/Moscow');
  });
});
