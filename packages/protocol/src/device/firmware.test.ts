import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../constants.ts';
import { decodeLiftMessage } from '../mqtt/payloads.ts';
import {
  DOWNLINK_TOPICS,
  UPLINK_TOPICS,
  liftMayPublish,
  liftMaySubscribe,
} from '../mqtt/topics.ts';
import { seededRandom } from '../random.ts';
import {
  FIRMWARE_ADVICE,
  FIRMWARE_CONFIRM_MS,
  FIRMWARE_DOWNLOAD_ATTEMPTS,
  FIRMWARE_FAILURES,
  FIRMWARE_FAILURE_TEXTS,
  FIRMWARE_INTERLOCKS,
  FIRMWARE_INTERLOCK_TEXTS,
  FIRMWARE_MANIFEST_MAX_BYTES,
  FIRMWARE_MAX_BYTES,
  FIRMWARE_OFFER_REFUSALS,
  FIRMWARE_PROGRESS_STEP_PERCENT,
  FIRMWARE_RETRY,
  FIRMWARE_SEQ_MAX,
  FIRMWARE_STATES,
  FIRMWARE_STATE_TEXTS,
  FIRMWARE_TOKEN_MAX_MS,
  FIRMWARE_TOKEN_TTL_MS,
  FIRMWARE_TOPICS,
  FIRMWARE_WINDOW_MAX_MS,
  canonicalManifest,
  checkOffer,
  compareFirmwareVersions,
  downloadPercent,
  downloadResponse,
  firmwareAtLeast,
  firmwareInterlockFacts,
  firmwareManifestSchema,
  firmwareReasonAdvice,
  firmwareReasonText,
  firmwareStateMessageSchema,
  firmwareVersionSchema,
  formatContentRange,
  formatRangeHeader,
  installBlocker,
  isFirmwareTransition,
  nextRetryAt,
  nextRetryDelay,
  parseContentRange,
  parseFirmwareEnvelope,
  parseFirmwareVersion,
  parseManifestText,
  parseRangeHeader,
  readOfferClaims,
  resolveDownloadUrl,
  type FirmwareInterlockFacts,
  type FirmwareManifest,
  type LiftFirmwareFacts,
} from './firmware.ts';
import { EXAMPLE_MANIFEST } from './firmware-example.ts';
import { initialLiftStatus } from './status.ts';

const EXAMPLE_MANIFEST_TEXT =
  '{"v":1,"campaignId":"5f0c2a4e-8d1b-4c3a-9e77-2b6f1d0a9c31","packageId":"0b6e9a57-3c2d-4f81-a0e4-7d5c9b1e2f60","deviceNo":"LL-0042","seq":17,' +
  '"kinds":["inclinedStraightRack","inclined2dRack"],"version":"FW-1.5.0","minVersion":"FW-1.2.0","size":1048576,' +
  '"sha256":"30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58","url":"/api/iot/firmware/0b6e9a57-3c2d-4f81-a0e4-7d5c9b1e2f60/image",' +
  '"token":"Zx8kQ2pV7mN4rT1yW6bH3cJ9dF5gL0sA","tokenExpiresAt":"2026-03-02T08:00:00.000Z","issuedAt":"2026-03-01T08:00:00.000Z",' +
  '"window":{"start":"2026-03-01T18:00:00.000Z","end":"2026-03-02T06:00:00.000Z"}}';

const lift: LiftFirmwareFacts = {
  deviceNo: 'LL-0042',
  kind: 'inclined2dRack',
  runningVersion: 'FW-1.3.1',
  lastSeq: 16,
  lastPackageId: 'older-package',
};
const at = (iso: string) => new Date(iso);
const issued = at('2026-03-01T08:00:05.000Z');
const idle: FirmwareInterlockFacts = {
  atLanding: true,
  folded: true,
  loaded: false,
  helpSignal: false,
  inTrip: false,
  lockedOut: false,
};
const bad = { ok: false, reason: 'badManifest' };

describe('firmware versions', () => {
  it('accepts the versions lifts report today and refuses what cannot be ordered', () => {
    for (const v of [
      '1.0.0',
      'FW-1.0.0',
      'SIM-1.0.0',
      '1.2.0',
      '1.4.2',
      'FW2-10.20.30',
      'ABCDEFGH-999999.0.0',
    ])
      expect(firmwareVersionSchema.safeParse(v).success, v).toBe(true);
    for (const v of [
      '',
      '1',
      '1.0',
      '1.0.0.0',
      '01.0.0',
      '1.00.0',
      'v1.0.0',
      'fw-1.0.0',
      'FW_1.0.0',
      'FW-',
      '-1.0.0',
      '1.0.0-rc1',
      ' 1.0.0',
      '1.0.0 ',
      '1234567.0.0',
      'ABCDEFGHI-1.0.0',
    ]) {
      expect(firmwareVersionSchema.safeParse(v).success, v).toBe(false);
    }
    expect(parseFirmwareVersion('FW-1.10.3')).toEqual({ prefix: 'FW', numbers: [1, 10, 3] });
    expect(parseFirmwareVersion('legacy')).toBeNull();
  });

  it('orders by the numbers (1.10 after 1.9), then by prefix, with non-versions first', () => {
    const sorted = [
      '2.0.0',
      'FW-1.10.0',
      'legacy',
      'FW-1.9.9',
      '1.9.9',
      'SIM-1.9.9',
      '',
      '0.0.1',
      'FW-1.9.10',
    ].sort(compareFirmwareVersions);
    expect(sorted).toEqual([
      '',
      'legacy',
      '0.0.1',
      '1.9.9',
      'FW-1.9.9',
      'SIM-1.9.9',
      'FW-1.9.10',
      'FW-1.10.0',
      '2.0.0',
    ]);
  });

  it('is a total order: antisymmetric, transitive, and 0 only for equal strings', () => {
    const version = fc.oneof(
      fc
        .tuple(fc.constantFrom('', 'FW-', 'SIM-'), fc.nat(12), fc.nat(12), fc.nat(12))
        .map(([p, a, b, c]) => `${p}${a}.${b}.${c}`),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(compareFirmwareVersions(a, b)).toBe(-compareFirmwareVersions(b, a) || 0);
        expect(compareFirmwareVersions(a, b) === 0).toBe(a === b);
        if (compareFirmwareVersions(a, b) <= 0 && compareFirmwareVersions(b, c) <= 0)
          expect(compareFirmwareVersions(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });

  it('decides "at least the minimum" by the numbers alone, and never for a lift that cannot name its version', () => {
    expect(firmwareAtLeast('FW-1.2.0', 'FW-1.2.0')).toBe(true);
    expect(firmwareAtLeast('FW-1.10.0', 'FW-1.9.0')).toBe(true);
    expect(firmwareAtLeast('FW-1.1.9', 'FW-1.2.0')).toBe(false);
    expect(firmwareAtLeast('SIM-1.2.0', 'FW-1.2.0')).toBe(true);
    expect(firmwareAtLeast('1.2.0', 'FW-1.2.0')).toBe(true);
    expect(firmwareAtLeast('', '0.0.0')).toBe(false);
    expect(firmwareAtLeast('legacy', '0.0.0')).toBe(false);
  });
});

describe('the manifest', () => {
  it('has one canonical string: compact JSON, fixed key order, kinds in DEVICE_KINDS order', () => {
    expect(canonicalManifest(EXAMPLE_MANIFEST)).toBe(EXAMPLE_MANIFEST_TEXT);
    const shuffled = {
      window: EXAMPLE_MANIFEST.window,
      ...EXAMPLE_MANIFEST,
      kinds: ['inclined2dRack', 'inclinedStraightRack'],
    } as FirmwareManifest;
    expect(canonicalManifest(shuffled)).toBe(EXAMPLE_MANIFEST_TEXT);
    const { campaignId: _c, window: _w, ...plain } = EXAMPLE_MANIFEST;
    expect(canonicalManifest(plain)).not.toContain('campaignId');
    expect(canonicalManifest(plain)).not.toContain('window');
    expect(parseManifestText(EXAMPLE_MANIFEST_TEXT)).toEqual({
      ok: true,
      manifest: EXAMPLE_MANIFEST,
    });
    expect(() => canonicalManifest({ ...EXAMPLE_MANIFEST, size: 0 })).toThrow(TypeError);
  });

  it('refuses any other spelling of the same manifest: whitespace, key order, duplicate keys, escapes, unsorted kinds', () => {
    const swapped = EXAMPLE_MANIFEST_TEXT.replace(
      '"v":1,"campaignId":"5f0c2a4e-8d1b-4c3a-9e77-2b6f1d0a9c31"',
      '"campaignId":"5f0c2a4e-8d1b-4c3a-9e77-2b6f1d0a9c31","v":1',
    );
    const variants = [
      JSON.stringify(EXAMPLE_MANIFEST, null, 2),
      ` ${EXAMPLE_MANIFEST_TEXT}`,
      swapped,
      EXAMPLE_MANIFEST_TEXT.replace('"seq":17', '"seq":17,"seq":17'),
      EXAMPLE_MANIFEST_TEXT.replace('"seq":17', '"seq":1,"seq":17'),
      EXAMPLE_MANIFEST_TEXT.replace('LL-0042', 'LL-\\u0030042'),
      EXAMPLE_MANIFEST_TEXT.replace(
        '"inclinedStraightRack","inclined2dRack"',
        '"inclined2dRack","inclinedStraightRack"',
      ),
      EXAMPLE_MANIFEST_TEXT.replace('"size":1048576', '"size":1048576.0'),
      EXAMPLE_MANIFEST_TEXT.replace('"size":1048576', '"size":1.048576e6'),
    ];
    for (const text of variants) expect(parseManifestText(text), text).toEqual(bad);
  });

  it('refuses invalid fields', () => {
    const m = EXAMPLE_MANIFEST;
    const invalid: Record<string, unknown>[] = [
      { ...m, v: 2 },
      { ...m, extra: true },
      { ...m, kinds: [] },
      { ...m, kinds: ['inclined2dRack', 'inclined2dRack'] },
      { ...m, kinds: ['escalator'] },
      { ...m, version: '1.5' },
      { ...m, minVersion: 'latest' },
      { ...m, size: 0 },
      { ...m, size: FIRMWARE_MAX_BYTES + 1 },
      { ...m, size: 10.5 },
      { ...m, sha256: m.sha256.toUpperCase() },
      { ...m, sha256: m.sha256.slice(1) },
      { ...m, url: 'http://cdn.example.com/image.bin' },
      { ...m, url: 'https://user:pw@cdn.example.com/image.bin' },
      { ...m, url: 'https://cdn.example.com/image.bin#x' },
      { ...m, url: '//cdn.example.com/image.bin' },
      { ...m, url: 'image.bin' },
      { ...m, url: '/a b' },
      { ...m, url: '/a"b' },
      { ...m, token: 'short' },
      { ...m, token: 'has space in it 0123456789' },
      { ...m, deviceNo: 'll-0042' },
      { ...m, seq: 0 },
      { ...m, seq: 2_147_483_648 },
      { ...m, issuedAt: '2026-03-01T08:00:00Z' },
      { ...m, issuedAt: '2026-02-30T08:00:00.000Z' },
      { ...m, tokenExpiresAt: m.issuedAt },
      { ...m, tokenExpiresAt: '2026-03-09T08:00:00.001Z' },
      { ...m, window: { start: m.window!.end, end: m.window!.start } },
      { ...m, window: { start: '2026-03-01T18:00:00.000Z', end: '2026-05-01T18:00:00.000Z' } },
      { ...m, window: { start: '2026-03-01T18:00:00.000Z' } },
    ];
    for (const value of invalid) {
      expect(firmwareManifestSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(parseManifestText(JSON.stringify(value))).toEqual(bad);
    }
    expect(
      firmwareManifestSchema.safeParse({ ...m, url: 'https://cdn.example.com/fw/image.bin?v=1' })
        .success,
    ).toBe(true);
  });

  it("resolves a path against the lift's HTTPS address and leaves an absolute URL alone", () => {
    expect(resolveDownloadUrl('/api/iot/firmware/p/image', 'https://cloud.example.com')).toBe(
      'https://cloud.example.com/api/iot/firmware/p/image',
    );
    expect(resolveDownloadUrl('https://cdn.example.com/x.bin', 'https://cloud.example.com')).toBe(
      'https://cdn.example.com/x.bin',
    );
  });
});

describe('the offer envelope', () => {
  const envelope = {
    manifest: EXAMPLE_MANIFEST_TEXT,
    signature: `${'A'.repeat(85)}Q==`,
    keyId: '0123456789abcdef',
  };

  it('reads an offer from bytes, text or an object, and nothing else', () => {
    const text = JSON.stringify(envelope);
    expect(parseFirmwareEnvelope(text)).toEqual(envelope);
    expect(parseFirmwareEnvelope(new TextEncoder().encode(text))).toEqual(envelope);
    expect(parseFirmwareEnvelope(envelope)).toEqual(envelope);
    expect(parseFirmwareEnvelope(new Uint8Array([0x7b, 0xff, 0x7d]))).toBeNull();
    expect(parseFirmwareEnvelope('{')).toBeNull();
    expect(parseFirmwareEnvelope({ ...envelope, signature: `${'A'.repeat(85)}B==` })).toBeNull();
    expect(parseFirmwareEnvelope({ ...envelope, signature: 'A'.repeat(88) })).toBeNull();
    expect(parseFirmwareEnvelope({ ...envelope, keyId: '0123456789ABCDEF' })).toBeNull();
    expect(parseFirmwareEnvelope({ ...envelope, extra: 1 })).toBeNull();
    expect(parseFirmwareEnvelope({ ...envelope, manifest: 'x'.repeat(5000) })).toBeNull();
  });

  it('tells what an unverified offer claims to be, for the refusal report', () => {
    expect(readOfferClaims(envelope)).toEqual({
      packageId: EXAMPLE_MANIFEST.packageId,
      version: 'FW-1.5.0',
      offerSeq: 17,
    });
    expect(readOfferClaims({ ...envelope, manifest: '{"packageId":"p-1","seq":-3}' })).toEqual({
      packageId: 'p-1',
      version: null,
      offerSeq: null,
    });
    expect(readOfferClaims({ ...envelope, manifest: 'null' })).toEqual({
      packageId: null,
      version: null,
      offerSeq: null,
    });
    expect(readOfferClaims('garbage')).toEqual({ packageId: null, version: null, offerSeq: null });
  });
});

describe("the lift's check of an offer", () => {
  const m = EXAMPLE_MANIFEST;

  it('accepts a fresh offer for itself over a version at or above the minimum', () => {
    expect(checkOffer(m, lift, issued)).toEqual({ ok: true, action: 'install' });
    expect(
      checkOffer(
        m,
        {
          ...lift,
          runningVersion: 'FW-1.2.0',
          kind: 'inclinedStraightRack',
          lastSeq: 0,
          lastPackageId: undefined,
        },
        issued,
      ),
    ).toEqual({ ok: true, action: 'install' });
  });

  it('refuses an offer for another lift, another kind, below the minimum, with an expired token or a closed window', () => {
    expect(checkOffer(m, { ...lift, deviceNo: 'LL-0043' }, issued)).toEqual({
      ok: false,
      reason: 'wrongLift',
    });
    expect(checkOffer(m, { ...lift, kind: 'verticalHydraulic' }, issued)).toEqual({
      ok: false,
      reason: 'wrongKind',
    });
    expect(checkOffer(m, { ...lift, runningVersion: 'FW-1.1.9' }, issued)).toEqual({
      ok: false,
      reason: 'belowMinimum',
    });
    expect(checkOffer(m, { ...lift, runningVersion: 'legacy' }, issued)).toEqual({
      ok: false,
      reason: 'belowMinimum',
    });
    expect(checkOffer(m, lift, at(m.tokenExpiresAt))).toEqual({
      ok: false,
      reason: 'expiredToken',
    });
    const closed = { ...m, tokenExpiresAt: '2026-03-03T08:00:00.000Z' };
    expect(checkOffer(closed, lift, at(m.window!.end))).toEqual({
      ok: false,
      reason: 'windowClosed',
    });
    expect(checkOffer(closed, lift, at('2026-03-02T05:59:59.999Z'))).toEqual({
      ok: true,
      action: 'install',
    });
  });

  it('refuses a replayed older offer, but treats the accepted one delivered again as a duplicate', () => {
    expect(checkOffer(m, { ...lift, lastSeq: 17, lastPackageId: 'another' }, issued)).toEqual({
      ok: false,
      reason: 'replayed',
    });
    expect(checkOffer(m, { ...lift, lastSeq: 30 }, issued)).toEqual({
      ok: false,
      reason: 'replayed',
    });
    expect(checkOffer(m, { ...lift, lastSeq: 17, lastPackageId: m.packageId }, issued)).toEqual({
      ok: true,
      action: 'duplicate',
    });
    // a duplicate is recognised even after its token expired: the lift just reports where it is
    expect(
      checkOffer(
        m,
        { ...lift, lastSeq: 17, lastPackageId: m.packageId },
        at('2026-04-01T00:00:00.000Z'),
      ),
    ).toEqual({ ok: true, action: 'duplicate' });
  });

  it("answers an offer of the version it runs as already running, whatever its token and window (the cloud's cancel)", () => {
    expect(
      checkOffer(m, { ...lift, runningVersion: 'FW-1.5.0' }, at('2026-04-01T00:00:00.000Z')),
    ).toEqual({ ok: true, action: 'alreadyRunning' });
  });

  it('checks in the documented order: lift, kind, replay, token, window, minimum', () => {
    const worst = {
      deviceNo: 'LL-9999',
      kind: 'verticalHydraulic',
      runningVersion: '0.0.1',
      lastSeq: 99,
    } as const;
    const late = at('2026-04-01T00:00:00.000Z');
    const steps: [Partial<LiftFirmwareFacts>, Date, string][] = [
      [{}, late, 'wrongLift'],
      [{ deviceNo: 'LL-0042' }, late, 'wrongKind'],
      [{ deviceNo: 'LL-0042', kind: 'inclined2dRack' }, late, 'replayed'],
      [{ deviceNo: 'LL-0042', kind: 'inclined2dRack', lastSeq: 16 }, late, 'expiredToken'],
      [
        { deviceNo: 'LL-0042', kind: 'inclined2dRack', lastSeq: 16 },
        at('2026-03-02T07:00:00.000Z'),
        'windowClosed',
      ],
      [{ deviceNo: 'LL-0042', kind: 'inclined2dRack', lastSeq: 16 }, issued, 'belowMinimum'],
    ];
    for (const [facts, now, reason] of steps)
      expect(checkOffer(m, { ...worst, ...facts }, now)).toEqual({ ok: false, reason });
    expect(FIRMWARE_OFFER_REFUSALS.slice(3)).toEqual(steps.map((s) => s[2]));
  });
});

describe('the install interlocks', () => {
  const window = EXAMPLE_MANIFEST.window!;
  const inWindow = at('2026-03-01T20:00:00.000Z');

  it('installs only when the lift stands idle, empty and folded at a landing, inside the window', () => {
    expect(installBlocker(idle, window, inWindow)).toBeNull();
    expect(installBlocker(idle, undefined, issued)).toBeNull();
    expect(installBlocker(idle, window, at(window.start))).toBeNull();
    expect(installBlocker(idle, window, at('2026-03-01T17:59:59.999Z'))).toBe('outsideWindow');
    expect(installBlocker(idle, window, at(window.end))).toBe('outsideWindow');
  });

  it('names each interlock, the first in the documented order when several apply', () => {
    let facts: FirmwareInterlockFacts = {
      atLanding: false,
      folded: false,
      loaded: true,
      helpSignal: true,
      inTrip: true,
      lockedOut: true,
    };
    let now = at('2026-03-01T12:00:00.000Z');
    const clear: Record<string, () => void> = {
      outsideWindow: () => (now = inWindow),
      lockedOut: () => (facts = { ...facts, lockedOut: false }),
      helpSignal: () => (facts = { ...facts, helpSignal: false }),
      inTrip: () => (facts = { ...facts, inTrip: false }),
      loaded: () => (facts = { ...facts, loaded: false }),
      notAtLanding: () => (facts = { ...facts, atLanding: true }),
      notFolded: () => (facts = { ...facts, folded: true }),
    };
    const seen: (string | null)[] = [];
    for (;;) {
      const blocker = installBlocker(facts, window, now);
      seen.push(blocker);
      if (blocker === null) break;
      clear[blocker]!();
    }
    expect(seen).toEqual([...FIRMWARE_INTERLOCKS, null]);
    // each one alone blocks too
    expect(installBlocker({ ...idle, loaded: true }, undefined, now)).toBe('loaded');
    expect(installBlocker({ ...idle, folded: false }, undefined, now)).toBe('notFolded');
    expect(installBlocker({ ...idle, helpSignal: true }, undefined, now)).toBe('helpSignal');
  });

  it('reads the interlocks from a status snapshot', () => {
    const standing = initialLiftStatus(1);
    expect(installBlocker(firmwareInterlockFacts(standing), undefined, issued)).toBeNull();
    const cases: [(s: ReturnType<typeof initialLiftStatus>) => void, string][] = [
      [(s) => (s.floor = null), 'notAtLanding'],
      [(s) => (s.platform.deformation = 'waitingLeft'), 'notFolded'],
      [(s) => (s.platform.loadValue = 75), 'loaded'],
      [(s) => (s.platform.overloaded = true), 'loaded'],
      [(s) => (s.platform.helpSignal = true), 'helpSignal'],
      [(s) => (s.housing.io.alarmButton = true), 'helpSignal'],
      [(s) => (s.targetFloor = 2), 'inTrip'],
      [(s) => (s.platform.movement = 'rise'), 'inTrip'],
      [(s) => (s.aging = { target: 'pedals', cycles: 3 }), 'inTrip'],
      [(s) => (s.mode = 'debug'), 'inTrip'],
      [(s) => (s.mode = 'lockout'), 'lockedOut'],
      [(s) => (s.housing.io.lockoutMode = true), 'lockedOut'],
    ];
    for (const [change, reason] of cases) {
      const status = initialLiftStatus(1);
      change(status);
      expect(installBlocker(firmwareInterlockFacts(status), undefined, issued), reason).toBe(
        reason,
      );
    }
    const tare = initialLiftStatus(1);
    tare.platform.loadValue = 4;
    expect(installBlocker(firmwareInterlockFacts(tare), undefined, issued)).toBeNull();
  });
});

describe('deferred retries', () => {
  it('waits between half a minute and half an hour, growing with the attempts', () => {
    expect(nextRetryDelay(1, () => 0)).toBe(FIRMWARE_RETRY.baseMs / 2);
    expect(nextRetryDelay(1, () => 0.999999)).toBeLessThan(FIRMWARE_RETRY.baseMs);
    expect(nextRetryDelay(2, () => 0)).toBe(FIRMWARE_RETRY.baseMs);
    expect(nextRetryDelay(100, () => 0)).toBe(FIRMWARE_RETRY.capMs / 2);
    expect(nextRetryDelay(100, () => 0.999999)).toBeLessThan(FIRMWARE_RETRY.capMs);
    for (const attempt of [0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
      const d = nextRetryDelay(attempt, () => 0.5);
      expect(d).toBeGreaterThanOrEqual(FIRMWARE_RETRY.baseMs / 2);
      expect(d).toBeLessThan(FIRMWARE_RETRY.capMs);
    }
    for (const r of [-1, 2, Number.NaN]) {
      const d = nextRetryDelay(3, () => r);
      expect(d).toBeGreaterThanOrEqual(FIRMWARE_RETRY.baseMs * 2);
      expect(d).toBeLessThan(FIRMWARE_RETRY.baseMs * 4);
    }
  });

  it('is the same for the same generator and spreads a fleet deferred together', () => {
    const draws = (seed: number) =>
      [1, 2, 3, 4, 5, 6].map((n) => nextRetryDelay(n, seededRandom(seed)));
    expect(draws(7)).toEqual(draws(7));
    const fleet = new Set(
      Array.from({ length: 100 }, (_, i) => nextRetryDelay(1, seededRandom(i))),
    );
    expect(fleet.size).toBeGreaterThan(90);
  });

  it('waits for the window to open, and spreads the fleet over its first half minute', () => {
    const window = EXAMPLE_MANIFEST.window!;
    const retry = nextRetryAt(5, 'outsideWindow', window, issued, () => 0.5);
    expect(retry.getTime() - Date.parse(window.start)).toBe(FIRMWARE_RETRY.baseMs / 4);
    expect(nextRetryAt(1, 'loaded', window, issued, () => 0).getTime()).toBe(
      issued.getTime() + FIRMWARE_RETRY.baseMs / 2,
    );
  });
});

describe('the state report', () => {
  const base = {
    seq: 1_772_352_000_000_001,
    ts: '2026-03-01T08:00:10.000Z',
    v: 1,
    offerSeq: 17,
    packageId: EXAMPLE_MANIFEST.packageId,
    version: 'FW-1.5.0',
    runningVersion: 'FW-1.3.1',
  };
  const valid = (r: object) => firmwareStateMessageSchema.safeParse({ ...base, ...r }).success;

  it('accepts each state with what it needs', () => {
    expect(valid({ state: 'queued' })).toBe(true);
    expect(valid({ state: 'downloading', percent: 40, bytes: 419_430 })).toBe(true);
    expect(valid({ state: 'downloading', percent: 0 })).toBe(true);
    expect(valid({ state: 'verifying' })).toBe(true);
    expect(
      valid({ state: 'deferred', reason: 'loaded', retryAt: '2026-03-01T08:01:00.000Z' }),
    ).toBe(true);
    expect(valid({ state: 'installing' })).toBe(true);
    expect(valid({ state: 'rebooting' })).toBe(true);
    expect(valid({ state: 'done', runningVersion: 'FW-1.5.0' })).toBe(true);
    expect(valid({ state: 'failed', reason: 'hashMismatch' })).toBe(true);
    expect(valid({ state: 'failed', reason: 'replayed', lastSeq: 40 })).toBe(true);
    expect(valid({ state: 'rolledBack', reason: 'bootFailed' })).toBe(true);
    expect(
      valid({
        state: 'failed',
        reason: 'badSignature',
        offerSeq: null,
        packageId: null,
        version: null,
      }),
    ).toBe(true);
    expect(valid({ state: 'failed', reason: 'unknownKey', runningVersion: 'legacy build 7' })).toBe(
      true,
    );
  });

  it('refuses reports that do not add up', () => {
    const invalid = [
      { state: 'downloading' },
      { state: 'downloading', percent: 101 },
      { state: 'queued', percent: 0 },
      { state: 'verifying', bytes: 10 },
      { state: 'downloading', percent: 5, bytes: FIRMWARE_MAX_BYTES + 1 },
      { state: 'deferred' },
      { state: 'deferred', reason: 'hashMismatch' },
      { state: 'installing', retryAt: '2026-03-01T08:01:00.000Z' },
      { state: 'failed' },
      { state: 'failed', reason: 'loaded' },
      { state: 'failed', reason: 'bootFailed' },
      { state: 'rolledBack', reason: 'hashMismatch' },
      { state: 'done', reason: 'loaded', runningVersion: 'FW-1.5.0' },
      { state: 'done' },
      { state: 'failed', reason: 'hashMismatch', lastSeq: 3 },
      { state: 'failed', reason: 'wrongKind', packageId: null },
      { state: 'queued', offerSeq: null },
      { state: 'queued', v: 2 },
      { state: 'queued', extra: 1 },
      { state: 'paused' },
      { state: 'queued', runningVersion: '' },
    ];
    for (const r of invalid) expect(valid(r), JSON.stringify(r)).toBe(false);
  });

  it('follows one order per offer; a later offer may end any update that has not started to install', () => {
    const path = [
      null,
      'queued',
      'downloading',
      'downloading',
      'verifying',
      'deferred',
      'deferred',
      'installing',
      'rebooting',
      'done',
    ] as const;
    for (let i = 1; i < path.length; i += 1)
      expect(isFirmwareTransition(path[i - 1]!, path[i]!), `${path[i - 1]} → ${path[i]}`).toBe(
        true,
      );
    expect(isFirmwareTransition(null, 'failed')).toBe(true);
    expect(isFirmwareTransition(null, 'done')).toBe(true);
    expect(isFirmwareTransition('deferred', 'failed')).toBe(true);
    expect(isFirmwareTransition('rebooting', 'rolledBack')).toBe(true);
    expect(isFirmwareTransition('rebooting', 'failed')).toBe(false);
    expect(isFirmwareTransition('downloading', 'installing')).toBe(false);
    expect(isFirmwareTransition('done', 'queued')).toBe(false);
    expect(isFirmwareTransition(null, 'installing')).toBe(false);
  });

  it('counts whole percent, 100 only when complete', () => {
    expect(downloadPercent(0, 100)).toBe(0);
    expect(downloadPercent(FIRMWARE_MAX_BYTES - 1, FIRMWARE_MAX_BYTES)).toBe(99);
    expect(downloadPercent(5, 5)).toBe(100);
    expect(downloadPercent(7, 5)).toBe(100);
    expect(downloadPercent(3, 0)).toBe(0);
  });
});

describe('ranged downloads', () => {
  it('reads the one-range forms a lift sends', () => {
    expect(parseRangeHeader('bytes=0-', 1000)).toEqual({ kind: 'partial', start: 0, end: 999 });
    expect(parseRangeHeader('bytes=500-', 1000)).toEqual({ kind: 'partial', start: 500, end: 999 });
    expect(parseRangeHeader('bytes=500-599', 1000)).toEqual({
      kind: 'partial',
      start: 500,
      end: 599,
    });
    expect(parseRangeHeader('bytes=999-999', 1000)).toEqual({
      kind: 'partial',
      start: 999,
      end: 999,
    });
    expect(parseRangeHeader('bytes=500-5000', 1000)).toEqual({
      kind: 'partial',
      start: 500,
      end: 999,
    });
    expect(parseRangeHeader('Bytes=1-2', 1000)).toEqual({ kind: 'partial', start: 1, end: 2 });
    expect(parseRangeHeader(' bytes=1-2 ', 1000)).toEqual({ kind: 'partial', start: 1, end: 2 });
  });

  it('answers a start at or past the end as unsatisfiable', () => {
    expect(parseRangeHeader('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRangeHeader('bytes=1000-2000', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRangeHeader('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores every other form and sends the whole image', () => {
    for (const h of [
      undefined,
      null,
      '',
      'bytes=-500',
      'bytes=5-1',
      'bytes=0-1,5-9',
      'items=0-1',
      'bytes=a-',
      'bytes= 0-1',
      'bytes=0 -1',
      'bytes=1234567890123456-',
      'bytes=0x10-',
    ]) {
      expect(parseRangeHeader(h, 1000), String(h)).toEqual({ kind: 'full' });
    }
    expect(() => parseRangeHeader('bytes=0-', -1)).toThrow(RangeError);
    expect(() => parseRangeHeader('bytes=0-', 1.5)).toThrow(RangeError);
  });

  it('writes Range and Content-Range, and reads Content-Range back', () => {
    expect(formatRangeHeader(0)).toBe('bytes=0-');
    expect(formatRangeHeader(500, 599)).toBe('bytes=500-599');
    expect(() => formatRangeHeader(-1)).toThrow(RangeError);
    expect(() => formatRangeHeader(5, 4)).toThrow(RangeError);
    expect(formatContentRange({ start: 500, end: 999 }, 1000)).toBe('bytes 500-999/1000');
    expect(formatContentRange(null, 1000)).toBe('bytes */1000');
    expect(parseContentRange('bytes 500-999/1000')).toEqual({ start: 500, end: 999, size: 1000 });
    for (const h of [
      undefined,
      'bytes */1000',
      'bytes 5-4/1000',
      'bytes 0-1000/1000',
      'bytes 0-9/*',
      'bytes=0-9/10',
    ])
      expect(parseContentRange(h), String(h)).toBeNull();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: FIRMWARE_MAX_BYTES }),
        fc.nat(),
        fc.nat(),
        (size, a, b) => {
          const start = a % size;
          const r = parseRangeHeader(formatRangeHeader(start, start + b), size);
          expect(r).toEqual({ kind: 'partial', start, end: Math.min(start + b, size - 1) });
          if (r.kind === 'partial')
            expect(parseContentRange(formatContentRange(r, size))).toEqual({
              start: r.start,
              end: r.end,
              size,
            });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tells the lift to append, start over, retry or give up', () => {
    expect(downloadResponse(206, 'bytes 500-999/1000', 500, 1000)).toEqual({ action: 'append' });
    expect(downloadResponse(206, 'bytes 0-999/1000', 500, 1000)).toEqual({
      action: 'fail',
      reason: 'downloadFailed',
    });
    expect(downloadResponse(206, 'bytes 500-1099/1100', 500, 1000)).toEqual({
      action: 'fail',
      reason: 'sizeMismatch',
    });
    expect(downloadResponse(206, undefined, 500, 1000)).toEqual({
      action: 'fail',
      reason: 'sizeMismatch',
    });
    expect(downloadResponse(200, undefined, 500, 1000)).toEqual({ action: 'restart' });
    expect(downloadResponse(401, undefined, 0, 1000)).toEqual({
      action: 'fail',
      reason: 'tokenRefused',
    });
    expect(downloadResponse(403, undefined, 0, 1000)).toEqual({
      action: 'fail',
      reason: 'tokenRefused',
    });
    expect(downloadResponse(410, undefined, 0, 1000)).toEqual({
      action: 'fail',
      reason: 'withdrawn',
    });
    expect(downloadResponse(416, 'bytes */900', 950, 1000)).toEqual({
      action: 'fail',
      reason: 'sizeMismatch',
    });
    for (const s of [408, 429, 500, 502, 503])
      expect(downloadResponse(s, undefined, 0, 1000)).toEqual({ action: 'retry' });
    expect(downloadResponse(404, undefined, 0, 1000)).toEqual({
      action: 'fail',
      reason: 'downloadFailed',
    });
  });
});

describe('topics, texts and the protocol document', () => {
  it("has a downlink offer and an uplink state at QoS 1, not retained, among the broker's topics with their rights", () => {
    expect(FIRMWARE_TOPICS).toEqual({
      'firmware/offer': { direction: 'downlink', retain: false, qos: 1 },
      'firmware/state': { direction: 'uplink', retain: false, qos: 1 },
    });
    expect(UPLINK_TOPICS).toContain('firmware/state');
    expect(DOWNLINK_TOPICS).toContain('firmware/offer');
    // A lift reports its own update and hears its own offers; never another lift's, never the other way.
    expect(liftMayPublish('LL-0042', 'lifts/LL-0042/firmware/state')).toBe(true);
    expect(liftMayPublish('LL-0042', 'lifts/LL-0043/firmware/state')).toBe(false);
    expect(liftMayPublish('LL-0042', 'lifts/LL-0042/firmware/offer')).toBe(false);
    expect(liftMaySubscribe('LL-0042', 'lifts/LL-0042/firmware/offer')).toBe(true);
    expect(liftMaySubscribe('LL-0042', 'lifts/LL-0043/firmware/offer')).toBe(false);
    expect(liftMaySubscribe('LL-0042', 'lifts/LL-0042/firmware/state')).toBe(false);
    expect(liftMaySubscribe('LL-0042', 'lifts/LL-0042/firmware/+')).toBe(false);
    // Ingest decodes a report against its schema and drops one that breaks it.
    const report = {
      seq: 7,
      ts: '2026-11-28T01:00:00.000Z',
      v: 1,
      offerSeq: 3,
      packageId: 'pkg-1',
      version: 'FW-2.0.0',
      state: 'downloading',
      percent: 40,
      bytes: 4000,
      runningVersion: 'FW-1.0.0',
    };
    expect(decodeLiftMessage('lifts/LL-0042/firmware/state', JSON.stringify(report))).toEqual({
      ok: true,
      deviceNo: 'LL-0042',
      kind: 'firmware/state',
      message: report,
    });
    expect(decodeLiftMessage('lifts/LL-0042/firmware/state', '{}')).toEqual({
      ok: false,
      reason: 'schema',
      deviceNo: 'LL-0042',
      kind: 'firmware/state',
    });
    expect(
      decodeLiftMessage(
        'lifts/LL-0042/firmware/state',
        JSON.stringify({ ...report, percent: undefined }),
      ),
    ).toMatchObject({ ok: false, reason: 'schema' });
  });

  it('has every reason and state in three languages, and advice where the engineer can act', () => {
    const tables = [FIRMWARE_INTERLOCK_TEXTS, FIRMWARE_FAILURE_TEXTS, FIRMWARE_STATE_TEXTS];
    expect(Object.keys(FIRMWARE_INTERLOCK_TEXTS)).toEqual([...FIRMWARE_INTERLOCKS]);
    expect(Object.keys(FIRMWARE_FAILURE_TEXTS).sort()).toEqual([...FIRMWARE_FAILURES].sort());
    expect(Object.keys(FIRMWARE_STATE_TEXTS)).toEqual([...FIRMWARE_STATES]);
    for (const table of tables)
      for (const text of Object.values(table))
        for (const lang of LANGUAGES) expect(text[lang].length).toBeGreaterThan(0);
    for (const text of Object.values(FIRMWARE_ADVICE))
      for (const lang of LANGUAGES) expect(text[lang].length).toBeGreaterThan(0);
    expect(firmwareReasonText('hashMismatch', 'en-US')).toBe(
      'The image is corrupted (SHA-256 mismatch)',
    );
    expect(firmwareReasonText('loaded', 'ru-RU')).toBe('На платформе есть груз');
    expect(firmwareReasonText('loaded', 'xx')).toBe(FIRMWARE_INTERLOCK_TEXTS.loaded['zh-CN']);
    expect(firmwareReasonText('mystery', 'en-US')).toBe('mystery');
    expect(firmwareReasonAdvice('belowMinimum', 'en-US')).toBe(
      'Install an intermediate version first.',
    );
    expect(firmwareReasonAdvice('superseded', 'en-US')).toBeNull();
    for (const r of [...FIRMWARE_INTERLOCKS, ...FIRMWARE_FAILURES].filter(
      (r) => r !== 'superseded',
    ))
      expect(firmwareReasonAdvice(r, 'en-US'), r).not.toBeNull();
  });

  it('docs/protocol.md section 11 lists every reason with its text, every state, and the example manifest', async () => {
    const doc = await readFile(new URL('../../../../docs/protocol.md', import.meta.url), 'utf8');
    const start = doc.indexOf('## 11. Firmware updates over the air');
    expect(start).toBeGreaterThan(0);
    const section = doc.slice(start);
    for (const r of FIRMWARE_INTERLOCKS)
      expect(section).toContain(`| \`${r}\` | ${FIRMWARE_INTERLOCK_TEXTS[r]['en-US']} |`);
    for (const r of FIRMWARE_FAILURES)
      expect(section).toContain(
        `| \`${r}\` | ${FIRMWARE_FAILURE_TEXTS[r]['en-US'].replace(/\|/g, '\\|')} |`,
      );
    for (const s of FIRMWARE_STATES) expect(section).toContain(`| \`${s}\` |`);
    expect(section).toContain(EXAMPLE_MANIFEST_TEXT);
    const constants = {
      FIRMWARE_MAX_BYTES,
      FIRMWARE_MANIFEST_MAX_BYTES,
      FIRMWARE_SEQ_MAX,
      FIRMWARE_TOKEN_TTL_MS,
      FIRMWARE_TOKEN_MAX_MS,
      FIRMWARE_WINDOW_MAX_MS,
      FIRMWARE_PROGRESS_STEP_PERCENT,
      FIRMWARE_DOWNLOAD_ATTEMPTS,
      FIRMWARE_CONFIRM_MS,
    };
    for (const [name, value] of Object.entries(constants))
      expect(section).toContain(`| \`${name}\` | ${value} |`);
    // every example report in the section is one the schema accepts
    const reports = section.split('\n').filter((line) => line.startsWith('{"seq":'));
    expect(reports.length).toBeGreaterThan(8);
    for (const line of reports)
      expect(firmwareStateMessageSchema.safeParse(JSON.parse(line)).success, line).toBe(true);
    const states = reports.map((line) => (JSON.parse(line) as { state: string }).state);
    expect(new Set(states)).toEqual(new Set(FIRMWARE_STATES));
  });
});
