import { beforeAll, describe, expect, it } from 'vitest';
import { SerialError } from '@liftlink/protocol';
import { useEnglish } from '../../../test/render.tsx';
import { ApiError } from '../../../lib/http.ts';
import { BridgeError } from '../serial/bridge-client.ts';
import { benchProblem, issueText } from './errors.ts';

beforeAll(useEnglish);

describe('bench messages (spec section 8)', () => {
  it('names the serial failures, and offers "refresh list" for a device that does not match', () => {
    expect(benchProblem(new SerialError('mismatch'))).toMatchObject({
      text: 'The device does not match',
      refresh: true,
    });
    expect(benchProblem(new SerialError('noDeviceNo'))).toMatchObject({
      text: 'The device has not been assigned a device number',
      refresh: false,
    });
    expect(benchProblem(new SerialError('timeout'))?.text).toMatch(/does not answer/);
  });

  it('uses the server code for API failures', () => {
    expect(
      benchProblem(
        new ApiError(409, 'lift.registered', 'device has been registered, check and retry'),
      ),
    ).toMatchObject({ text: 'The device has been registered, check and retry', refresh: false });
    expect(benchProblem(new ApiError(409, 'lift.mismatch', 'device does not match'))).toMatchObject(
      { text: 'The device does not match', refresh: true },
    );
  });

  it('names bridge failures and field issues with their limits', () => {
    expect(benchProblem(new BridgeError('openFailed'))?.text).toBe(
      'The serial port cannot be opened, re-insert the serial device',
    );
    expect(
      issueText({ message: 'validation.outsideChannel', params: { min: 100, max: 103 } }),
    ).toBe('The register must lie between 100 and 103 (what the channel polls)');
  });
});
