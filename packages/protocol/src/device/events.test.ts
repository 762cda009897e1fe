import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../constants.ts';
import { EVENT_CODES, EVENT_TABLE, PRESENCE_REASON_NAMES, PRESENCE_REASONS, eventCodeSchema, eventFloor, eventText, isEventCode, isFault, presenceCode } from './events.ts';

describe('event codes', () => {
  it('lists every code of the spec once', () => {
    const expected = [
      'RZOP', 'RZOS', 'RZOs', 'RZOT', 'RZOJ', 'RZOj', 'RZGU', 'RZGD', 'RZGS', 'RZLB', 'RZLK', 'RZLM',
      ...[1, 2, 3, 4].flatMap((n) => [`RZM${n}`, `RZY${n}`, `RZD${n}`]),
      ...[1, 2, 3, 4, 5].flatMap((n) => [`RZB${n}`, `RZF${n}`]),
      'EA', 'EB', 'EC', 'ED', 'EE', 'EF',
      'ONLINE', 'OFFLINE', 'MAINT_ON', 'MAINT_OFF',
    ];
    expect([...EVENT_CODES].sort()).toEqual(expected.sort());
    expect(new Set(EVENT_CODES).size).toBe(EVENT_CODES.length);
  });

  it('has a non-empty meaning in all three languages, distinct per code within a language', () => {
    for (const lang of LANGUAGES) {
      const texts = EVENT_TABLE.map((e) => e.text[lang]);
      for (const t of texts) expect(t.trim().length).toBeGreaterThan(0);
      expect(new Set(texts).size).toBe(texts.length);
    }
  });

  it('keeps the case-sensitive pairs apart', () => {
    expect(eventText('RZOS', 'en-US')).toBe('Lockout on');
    expect(eventText('RZOs', 'en-US')).toBe('Lockout off');
    expect(eventText('RZOJ', 'en-US')).not.toBe(eventText('RZOj', 'en-US'));
    expect(isEventCode('RZOs')).toBe(true);
    expect(isEventCode('rzos')).toBe(false);
  });

  it('answers in the caller language and falls back to Chinese', () => {
    expect(eventText('RZY2', 'en-US')).toBe('Target floor 2 set by cloud command');
    expect(eventText('RZD3', 'ru-RU')).toBe('Прибытие на этаж 3');
    expect(eventText('RZM1', 'zh-CN')).toBe('本地设置目标楼层1');
    expect(eventText('RZD1', 'de-DE')).toBe(eventText('RZD1', 'zh-CN'));
    expect(eventText('XX')).toBe('XX');
  });

  it('classes EA..EF as faults and the RZ codes as states', () => {
    expect(EVENT_CODES.filter(isFault)).toEqual(['EA', 'EB', 'EC', 'ED', 'EE', 'EF']);
    expect(isFault('RZOP')).toBe(false);
    expect(isFault('nope')).toBe(false);
  });

  it('validates codes and extracts floors', () => {
    expect(eventCodeSchema.safeParse('RZB5').success).toBe(true);
    expect(eventCodeSchema.safeParse('RZB6').success).toBe(false);
    expect(eventCodeSchema.safeParse('RZM5').success).toBe(false);
    // The cloud writes the connection events; a lift may not send them.
    expect(eventCodeSchema.safeParse('OFFLINE').success).toBe(false);
    expect(eventCodeSchema.safeParse('ONLINE').success).toBe(false);
    expect(eventCodeSchema.safeParse('MAINT_ON').success).toBe(false);
    expect(isEventCode('OFFLINE')).toBe(true);
    expect(eventFloor('RZY2')).toBe(2);
    expect(eventFloor('RZB2')).toBeNull();
  });

  it('tells why a lift went online or offline, in every language', () => {
    expect(eventText('OFFLINE', 'en-US', 'heartbeatSilence')).toBe('Device offline (silent past the heartbeat)');
    expect(eventText('OFFLINE', 'ru-RU', 'credentialReset')).toBe('Устройство не в сети (учётные данные сброшены)');
    expect(eventText('ONLINE', 'zh-CN', 'connected')).toBe('设备上线（已连接）');
    expect(eventText('OFFLINE', 'en-US')).toBe('Device offline');
    expect(eventText('OFFLINE', 'en-US', 'nonsense')).toBe('Device offline');
    for (const lang of LANGUAGES) {
      const texts = PRESENCE_REASON_NAMES.map((r) => PRESENCE_REASONS[r].text[lang]);
      for (const t of texts) expect(t.trim().length).toBeGreaterThan(0);
      expect(new Set(texts).size).toBe(texts.length);
    }
    expect(PRESENCE_REASON_NAMES.filter((r) => presenceCode(r) === 'ONLINE')).toEqual(['connected', 'messageReceived']);
    expect(PRESENCE_REASON_NAMES.filter((r) => presenceCode(r) === 'OFFLINE')).toEqual(['cleanDisconnect', 'connectionLost', 'heartbeatSilence', 'credentialReset']);
  });
});
