import { describe, expect, it } from 'vitest';
import { hasIotInfo, iotChanges, signalBars, toIotInfo } from './iot-info.ts';

describe('IoT details', () => {
  it('sends trimmed fields and leaves empty ones out', () => {
    expect(
      toIotInfo({ iccid: ' 89860012345678901234 ', carrier: '', apn: '  ', signal: -71 }),
    ).toEqual({
      iccid: '89860012345678901234',
      signal: -71,
    });
    expect(toIotInfo({ signal: null })).toEqual({});
  });

  it('knows when nothing is stored', () => {
    expect(hasIotInfo({})).toBe(false);
    expect(hasIotInfo({ apn: 'cmnet' })).toBe(true);
  });

  it('turns dBm into bars', () => {
    expect([-51, -70, -71, -85, -90, -101, -111, -150].map(signalBars)).toEqual([
      4, 4, 3, 3, 2, 1, 0, 0,
    ]);
  });

  it('lists the changed fields in page order', () => {
    expect(
      iotChanges({ apn: 'a', signal: -90 }, { signal: -80, apn: 'a', iccid: '1'.repeat(19) }).map(
        (c) => c.key,
      ),
    ).toEqual(['iccid', 'signal']);
  });
});
