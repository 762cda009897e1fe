import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FIRMWARE_MAX_BYTES,
  FIRMWARE_TOKEN_MAX_MS,
  FIRMWARE_WINDOW_MAX_MS,
  canonicalManifest,
  parseFirmwareEnvelope,
  parseManifestText,
  readOfferClaims,
  type FirmwareEnvelope,
  type FirmwareManifest,
  type LiftFirmwareFacts,
} from './firmware.ts';
import { EXAMPLE_MANIFEST } from './firmware-example.ts';
import {
  firmwareKeyId,
  firmwarePublicKey,
  firmwareTrustStore,
  generateFirmwareKeyPair,
  rawPublicKey,
  receiveOffer,
  signManifest,
  verifyEnvelope,
} from './firmware-signature.ts';
import { DEVICE_KINDS } from './kinds.ts';

// The secret key of RFC 8032, section 7.1, test 1: public, for test vectors only.
const RFC8032_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC8032_PUBLIC = Buffer.from(
  'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  'hex',
).toString('base64');
const testKey = createPrivateKey({
  key: Buffer.concat([
    Buffer.from('302e020100300506032b657004220420', 'hex'),
    Buffer.from(RFC8032_SEED, 'hex'),
  ]),
  format: 'der',
  type: 'pkcs8',
});

/** The example of docs/protocol.md section 11 (firmware-example.ts). */
const example: FirmwareManifest = EXAMPLE_MANIFEST;
const EXAMPLE_SIGNATURE =
  'Q9OaEptyMM+WfbaeRd2QhVl9yZAPY19DMLsxG6zw2A/8aALa6p3U1HoF+SBAyiC1MDKAJHmhBUe+eKD2RudZAA==';

const maker = generateFirmwareKeyPair();
const other = generateFirmwareKeyPair();
const trusted = firmwareTrustStore([maker.publicKey]);
const lift: LiftFirmwareFacts = {
  deviceNo: 'LL-0042',
  kind: 'inclined2dRack',
  runningVersion: 'FW-1.3.1',
  lastSeq: 16,
};
const now = new Date('2026-03-01T08:00:05.000Z');

/** The envelope with one character of `field` replaced. */
function flip(
  envelope: FirmwareEnvelope,
  field: 'manifest' | 'signature',
  index: number,
): FirmwareEnvelope {
  const value = envelope[field];
  if (field === 'signature') {
    const bytes = Buffer.from(value, 'base64');
    bytes.writeUInt8(bytes.readUInt8(index % 64) ^ (1 << (index % 8)), index % 64);
    return { ...envelope, signature: bytes.toString('base64') };
  }
  const c = value.charCodeAt(index);
  const replaced = String.fromCharCode(c === 0x30 ? 0x31 : c ^ 1);
  return { ...envelope, manifest: value.slice(0, index) + replaced + value.slice(index + 1) };
}

describe('firmware signing keys', () => {
  it('makes an Ed25519 pair: a raw 32-byte public key for the lift, a PEM private key for the server, an id from the public key', () => {
    expect(Buffer.from(maker.publicKey, 'base64')).toHaveLength(32);
    expect(maker.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(maker.keyId).toBe(
      createHash('sha256')
        .update(Buffer.from(maker.publicKey, 'base64'))
        .digest('hex')
        .slice(0, 16),
    );
    expect(maker.keyId).not.toBe(other.keyId);
    expect(firmwareKeyId(maker.privateKey)).toBe(maker.keyId);
    expect(
      rawPublicKey(
        firmwarePublicKey(maker.privateKey).export({ format: 'pem', type: 'spki' }).toString(),
      ),
    ).toBe(maker.publicKey);
    expect(rawPublicKey(testKey)).toBe(RFC8032_PUBLIC);
  });

  it('refuses keys that are not Ed25519 public keys', () => {
    expect(() => firmwarePublicKey(Buffer.alloc(31).toString('base64'))).toThrow(TypeError);
    expect(() => firmwarePublicKey('not a key')).toThrow();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => firmwarePublicKey(ec.publicKey)).toThrow(TypeError);
    expect(() => signManifest(example, ec.privateKey)).toThrow(TypeError);
    expect(() => signManifest(example, firmwarePublicKey(maker.publicKey))).toThrow(TypeError);
  });
});

describe('signed offers', () => {
  it('signs the canonical manifest with a known answer (RFC 8032 key), as docs/protocol.md shows it', async () => {
    const envelope = signManifest(example, testKey);
    expect(envelope.manifest).toBe(canonicalManifest(example));
    expect(envelope.keyId).toBe(firmwareKeyId(RFC8032_PUBLIC));
    expect(envelope.signature).toBe(EXAMPLE_SIGNATURE);
    const doc = await readFile(new URL('../../../../docs/protocol.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## 11. Firmware updates over the air'));
    for (const text of [
      RFC8032_PUBLIC,
      envelope.keyId,
      envelope.signature,
      JSON.stringify(envelope.manifest),
    ])
      expect(section).toContain(text);
  });

  it('verifies an offer signed by a trusted key, given as bytes, text or object', () => {
    const envelope = signManifest(example, maker.privateKey);
    const expected = { ok: true, manifest: example, keyId: maker.keyId };
    expect(verifyEnvelope(envelope, trusted)).toEqual(expected);
    expect(verifyEnvelope(JSON.stringify(envelope), trusted)).toEqual(expected);
    expect(verifyEnvelope(new TextEncoder().encode(JSON.stringify(envelope)), trusted)).toEqual(
      expected,
    );
    expect(
      verifyEnvelope(envelope, firmwareTrustStore([other.publicKey, maker.publicKey])),
    ).toEqual(expected);
  });

  it('refuses a flipped byte anywhere in the manifest or the signature as a bad signature', () => {
    const envelope = signManifest(example, maker.privateKey);
    for (let i = 0; i < envelope.manifest.length; i += 1)
      expect(verifyEnvelope(flip(envelope, 'manifest', i), trusted), `manifest[${i}]`).toEqual({
        ok: false,
        reason: 'badSignature',
      });
    for (let i = 0; i < 64 * 8; i += 7)
      expect(verifyEnvelope(flip(envelope, 'signature', i), trusted), `signature bit ${i}`).toEqual(
        { ok: false, reason: 'badSignature' },
      );
  });

  it('refuses a key it does not trust, and a trusted key id on a signature made by another key', () => {
    const byOther = signManifest(example, other.privateKey);
    expect(verifyEnvelope(byOther, trusted)).toEqual({ ok: false, reason: 'unknownKey' });
    expect(verifyEnvelope({ ...byOther, keyId: maker.keyId }, trusted)).toEqual({
      ok: false,
      reason: 'badSignature',
    });
    expect(verifyEnvelope(signManifest(example, maker.privateKey), firmwareTrustStore([]))).toEqual(
      { ok: false, reason: 'unknownKey' },
    );
  });

  it('refuses a validly signed string that is not a canonical manifest', () => {
    const signed = (text: string): FirmwareEnvelope => ({
      manifest: text,
      signature: sign(null, Buffer.from(text), maker.privateKey).toString('base64'),
      keyId: maker.keyId,
    });
    expect(verifyEnvelope(signed(JSON.stringify(example, null, 1)), trusted)).toEqual({
      ok: false,
      reason: 'badManifest',
    });
    expect(
      verifyEnvelope(
        signed(canonicalManifest(example).replace('"seq":17', '"seq":99,"seq":17')),
        trusted,
      ),
    ).toEqual({ ok: false, reason: 'badManifest' });
    expect(
      verifyEnvelope(signed(canonicalManifest(example).replace('"v":1', '"v":2')), trusted),
    ).toEqual({ ok: false, reason: 'badManifest' });
    expect(verifyEnvelope(signed('{}'), trusted)).toEqual({ ok: false, reason: 'badManifest' });
    expect(verifyEnvelope({ manifest: 'x' }, trusted)).toEqual({
      ok: false,
      reason: 'badManifest',
    });
  });
});

describe('a lift receiving an offer', () => {
  const offer = (m: Partial<FirmwareManifest> = {}) =>
    JSON.stringify(signManifest({ ...example, ...m }, maker.privateKey));

  it('accepts an offer for itself, and reports the verified package, version and offer number when it refuses one', () => {
    expect(receiveOffer(offer(), trusted, lift, now)).toEqual({
      ok: true,
      manifest: example,
      action: 'install',
    });
    const claims = { packageId: example.packageId, version: 'FW-1.5.0', offerSeq: 17 };
    expect(receiveOffer(offer({ deviceNo: 'LL-0043' }), trusted, lift, now)).toEqual({
      ok: false,
      reason: 'wrongLift',
      ...claims,
    });
    expect(receiveOffer(offer({ kinds: ['verticalHydraulic'] }), trusted, lift, now)).toEqual({
      ok: false,
      reason: 'wrongKind',
      ...claims,
    });
    expect(receiveOffer(offer({ minVersion: 'FW-2.0.0' }), trusted, lift, now)).toEqual({
      ok: false,
      reason: 'belowMinimum',
      ...claims,
    });
    expect(receiveOffer(offer(), trusted, { ...lift, lastSeq: 20 }, now)).toEqual({
      ok: false,
      reason: 'replayed',
      ...claims,
    });
    expect(receiveOffer(offer(), trusted, lift, new Date(example.tokenExpiresAt))).toEqual({
      ok: false,
      reason: 'expiredToken',
      ...claims,
    });
  });

  it('refuses a tampered offer and reports only what it claims', () => {
    const tampered = JSON.stringify({
      ...signManifest(example, maker.privateKey),
      manifest: canonicalManifest({ ...example, sha256: 'f'.repeat(64) }),
    });
    expect(receiveOffer(tampered, trusted, lift, now)).toEqual({
      ok: false,
      reason: 'badSignature',
      packageId: example.packageId,
      version: 'FW-1.5.0',
      offerSeq: 17,
    });
    expect(receiveOffer('{"not":"an offer"}', trusted, lift, now)).toEqual({
      ok: false,
      reason: 'badManifest',
      packageId: null,
      version: null,
      offerSeq: null,
    });
  });
});

// ---------------------------------------------------------------------------------------
// Fuzzing

const start = Date.parse('2020-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const manifestArb: fc.Arbitrary<FirmwareManifest> = fc
  .record({
    campaignId: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), { nil: undefined }),
    packageId: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    deviceNo: fc.stringMatching(/^[A-Z0-9-]{4,32}$/),
    seq: fc.integer({ min: 1, max: 2_147_483_647 }),
    kinds: fc.shuffledSubarray([...DEVICE_KINDS], { minLength: 1 }),
    version: fc
      .tuple(
        fc.constantFrom('', 'FW-', 'SIM-', 'X9-'),
        fc.nat(999_999),
        fc.nat(999_999),
        fc.nat(999_999),
      )
      .map(([p, a, b, c]) => `${p}${a}.${b}.${c}`),
    minVersion: fc
      .tuple(fc.nat(20), fc.nat(20), fc.nat(20))
      .map(([a, b, c]) => `FW-${a}.${b}.${c}`),
    size: fc.integer({ min: 1, max: FIRMWARE_MAX_BYTES }),
    sha256: fc.stringMatching(/^[0-9a-f]{64}$/),
    url: fc.oneof(
      fc.stringMatching(/^\/[a-z0-9._~%-]{1,40}(\/[a-z0-9._~%-]{1,40}){0,3}$/),
      fc.constantFrom('https://cdn.example.com/fw/a.bin', 'https://[::1]:8443/x?y=1'),
    ),
    token: fc.stringMatching(/^[A-Za-z0-9._~+/-]{16,80}={0,2}$/),
    issued: fc.integer({ min: start, max: start + 20 * 365 * 86_400_000 }),
    tokenMs: fc.integer({ min: 1, max: FIRMWARE_TOKEN_MAX_MS }),
    window: fc.option(
      fc.tuple(fc.nat(FIRMWARE_WINDOW_MAX_MS), fc.integer({ min: 1, max: FIRMWARE_WINDOW_MAX_MS })),
      { nil: undefined },
    ),
  })
  .map(({ issued, tokenMs, window, ...m }) => ({
    v: 1 as const,
    ...m,
    issuedAt: iso(issued),
    tokenExpiresAt: iso(issued + tokenMs),
    window: window && { start: iso(issued + window[0]), end: iso(issued + window[0] + window[1]) },
  }));

/** A string edit: replace, insert or delete one character. */
const editArb = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'insert', 'delete'),
  char: fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
});
function applyEdit(text: string, e: { at: number; kind: string; char: string }): string {
  const i = e.at % (text.length + 1);
  if (e.kind === 'insert') return text.slice(0, i) + e.char + text.slice(i);
  if (e.kind === 'delete') return text.slice(0, i) + text.slice(i + 1);
  return text.slice(0, i) + e.char + text.slice(i + 1);
}

describe('fuzzing the offer parser', () => {
  it('never throws on arbitrary values, text, JSON or bytes, and never accepts them', () => {
    const input = fc.oneof(
      fc.anything(),
      fc.string({ unit: 'binary' }),
      fc.json(),
      fc.uint8Array({ maxLength: 300 }),
      fc.jsonValue().map((v) => ({
        manifest: JSON.stringify(v),
        signature: `${'A'.repeat(85)}A==`,
        keyId: maker.keyId,
      })),
    );
    fc.assert(
      fc.property(input, (payload) => {
        expect(verifyEnvelope(payload, trusted).ok).toBe(false);
        parseFirmwareEnvelope(payload);
        readOfferClaims(payload);
        if (typeof payload === 'string') expect(parseManifestText(payload).ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('reads back every valid manifest from its canonical string, and verifies it once signed', () => {
    fc.assert(
      fc.property(manifestArb, (m) => {
        const text = canonicalManifest(m);
        expect(text).toMatch(/^[\x21-\x7e]+$/);
        const parsed = parseManifestText(text);
        expect(parsed.ok).toBe(true);
        if (parsed.ok)
          expect({ ...parsed.manifest, kinds: [...parsed.manifest.kinds].sort() }).toEqual({
            ...JSON.parse(JSON.stringify(m)),
            kinds: [...m.kinds].sort(),
          });
        if (parsed.ok) expect(canonicalManifest(parsed.manifest)).toBe(text);
        const verified = verifyEnvelope(signManifest(m, maker.privateKey), trusted);
        expect(verified.ok && canonicalManifest(verified.manifest)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts a manifest string its signature does not cover', () => {
    fc.assert(
      fc.property(
        manifestArb,
        manifestArb,
        fc.array(editArb, { minLength: 1, maxLength: 3 }),
        (a, b, edits) => {
          const envelope = signManifest(a, maker.privateKey);
          const edited = edits.reduce(applyEdit, envelope.manifest);
          if (edited !== envelope.manifest)
            expect(verifyEnvelope({ ...envelope, manifest: edited }, trusted).ok).toBe(false);
          const swapped = canonicalManifest(b);
          if (swapped !== envelope.manifest) {
            expect(verifyEnvelope({ ...envelope, manifest: swapped }, trusted)).toEqual({
              ok: false,
              reason: 'badSignature',
            });
            expect(
              verifyEnvelope(
                { ...signManifest(b, maker.privateKey), manifest: envelope.manifest },
                trusted,
              ),
            ).toEqual({ ok: false, reason: 'badSignature' });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
