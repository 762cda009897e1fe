import { describe, expect, it } from 'vitest';
import { documentDownloadName, documentDownloadPath } from './manufacture-api.ts';
import { formatPairingCode, pairingCodeSchema, parseBridgeClientMessage, parseBridgeServerMessage } from './bridge.ts';

describe('bridge messages', () => {
  it('accepts pairing codes as typed (lower case, dash, spaces) and refuses look-alike letters', () => {
    expect(pairingCodeSchema.parse(' abcd-ef23 ')).toBe('ABCDEF23');
    expect(pairingCodeSchema.safeParse('ABCD-EF2O').success).toBe(false); // O looks like 0
    expect(pairingCodeSchema.safeParse('ABCDEF2').success).toBe(false);
    expect(formatPairingCode('ABCDEF23')).toBe('ABCD-EF23');
  });

  it('parses control messages strictly and returns null for anything else', () => {
    expect(parseBridgeClientMessage('{"type":"open","path":"/dev/ttyUSB0","settings":{"baudRate":115200,"dataBits":8,"parity":"none","stopBits":1}}')).toMatchObject({ type: 'open' });
    expect(parseBridgeClientMessage('{"type":"open","path":"/dev/ttyUSB0","settings":{"baudRate":12345,"dataBits":8,"parity":"none","stopBits":1}}')).toBeNull();
    expect(parseBridgeClientMessage('{"type":"list","x":1}')).toBeNull();
    expect(parseBridgeClientMessage('not json')).toBeNull();
    expect(parseBridgeServerMessage('{"type":"closed","reason":"lost"}')).toEqual({ type: 'closed', reason: 'lost' });
  });
});

describe('document download names', () => {
  it('turns slashes into underscores and # into the full-width ＃ (spec section 7)', () => {
    expect(documentDownloadName('manuals/2024#3 a\\b.pdf')).toBe('manuals_2024＃3 a_b.pdf');
    expect(documentDownloadPath('0b1e', 'a/b#c.zip')).toBe(`/api/document/download/0b1e/${encodeURIComponent('a_b＃c.zip')}`);
  });
});
