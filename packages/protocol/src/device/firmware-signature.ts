import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import {
  canonicalManifest,
  checkOffer,
  parseFirmwareEnvelope,
  parseManifestText,
  readOfferClaims,
  type FirmwareManifest,
  type FirmwareEnvelope,
  type FirmwareOfferRefusal,
  type LiftFirmwareFacts,
  type OfferAction,
} from './firmware.ts';

/**
 * Ed25519 signatures of firmware manifests (docs/protocol.md section 11.3), for the server
 * (signing) and the simulator (verifying, as a lift does). It needs node:crypto, so it is
 * not exported from `@liftlink/protocol` (the web client bundles that): import it by path.
 *
 * The manufacturer's private key stays on the server; the raw 32-byte public key is written
 * into each lift at the factory bench. A lift may trust several keys (the current one and
 * the next, for a rotation); the offer names its key by `keyId`.
 */

/** A key pair: the raw public key (what lifts hold), the private key as PKCS#8 PEM (what the server keeps), and the key id. */
export interface FirmwareKeyPair {
  keyId: string;
  /** The raw 32-byte Ed25519 public key, standard base64. */
  publicKey: string;
  /** PKCS#8 PEM. */
  privateKey: string;
}

export function generateFirmwareKeyPair(): FirmwareKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    keyId: firmwareKeyId(publicKey),
    publicKey: rawPublicKey(publicKey),
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

function ensureEd25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError('not an Ed25519 key');
  return key;
}

/**
 * A public key from its raw 32 bytes in base64 (as lifts hold it), a PEM (SPKI or a private
 * key's), or a KeyObject. Throws on anything that is not an Ed25519 key.
 */
export function firmwarePublicKey(key: string | KeyObject): KeyObject {
  if (typeof key !== 'string')
    return ensureEd25519(key.type === 'private' ? createPublicKey(key) : key);
  if (key.includes('-----BEGIN')) return ensureEd25519(createPublicKey(key));
  const raw = Buffer.from(key, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== key)
    throw new TypeError('not a raw Ed25519 public key');
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  });
}

/** The raw 32-byte public key in standard base64. */
export function rawPublicKey(key: string | KeyObject): string {
  const jwk = firmwarePublicKey(key).export({ format: 'jwk' });
  return Buffer.from(jwk.x!, 'base64url').toString('base64');
}

/** The key id: the first 16 hex digits of the SHA-256 of the raw public key. */
export function firmwareKeyId(key: string | KeyObject): string {
  return createHash('sha256')
    .update(Buffer.from(rawPublicKey(key), 'base64'))
    .digest('hex')
    .slice(0, 16);
}

/** The keys a lift trusts, by key id. */
export type FirmwareTrustStore = ReadonlyMap<string, KeyObject>;

/** A trust store from public keys (raw base64, PEM or KeyObject); each key is filed under its own id. */
export function firmwareTrustStore(keys: readonly (string | KeyObject)[]): FirmwareTrustStore {
  return new Map(keys.map((k) => [firmwareKeyId(k), firmwarePublicKey(k)]));
}

function privateKeyObject(key: string | KeyObject): KeyObject {
  const k = typeof key === 'string' ? createPrivateKey(key) : key;
  if (k.type !== 'private') throw new TypeError('not a private key');
  return ensureEd25519(k);
}

/**
 * Signs a manifest: the offer carries its canonical string, the signature of exactly those
 * bytes and the signing key's id (derived from the key, so it cannot name another one).
 * Throws on an invalid manifest or a key that is not a private Ed25519 key.
 */
export function signManifest(
  manifest: FirmwareManifest,
  privateKey: string | KeyObject,
): FirmwareEnvelope {
  const key = privateKeyObject(privateKey);
  const text = canonicalManifest(manifest);
  const signature = sign(null, Buffer.from(text, 'utf8'), key).toString('base64');
  return { manifest: text, signature, keyId: firmwareKeyId(key) };
}

export type VerifyResult =
  | { ok: true; manifest: FirmwareManifest; keyId: string }
  | { ok: false; reason: 'badManifest' | 'unknownKey' | 'badSignature' };

/**
 * Verifies an offer (an MQTT payload, text or an object) against the trusted keys, first
 * failing check wins: `badManifest` (not an offer), `unknownKey` (its key id is not
 * trusted), `badSignature` (the signature does not cover the manifest bytes), `badManifest`
 * (the signed string is not a canonical manifest). The manifest string is parsed only after
 * its signature has been verified. Never throws.
 */
export function verifyEnvelope(payload: unknown, trusted: FirmwareTrustStore): VerifyResult {
  const offer = parseFirmwareEnvelope(payload);
  if (!offer) return { ok: false, reason: 'badManifest' };
  const key = trusted.get(offer.keyId);
  if (!key) return { ok: false, reason: 'unknownKey' };
  let valid = false;
  try {
    valid = verify(
      null,
      Buffer.from(offer.manifest, 'utf8'),
      key,
      Buffer.from(offer.signature, 'base64'),
    );
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: 'badSignature' };
  const parsed = parseManifestText(offer.manifest);
  return parsed.ok ? { ok: true, manifest: parsed.manifest, keyId: offer.keyId } : parsed;
}

export type ReceiveResult =
  | { ok: true; manifest: FirmwareManifest; action: OfferAction }
  | {
      ok: false;
      reason: FirmwareOfferRefusal;
      packageId: string | null;
      version: string | null;
      offerSeq: number | null;
    };

/**
 * Everything a lift does with an offer before it downloads: verify (`verifyEnvelope`), then
 * check it against itself (`checkOffer`). A refusal carries what its report names: from
 * the verified manifest, or only the offer's claims (`readOfferClaims`) when it could not be
 * verified.
 */
export function receiveOffer(
  payload: unknown,
  trusted: FirmwareTrustStore,
  lift: LiftFirmwareFacts,
  now: Date,
): ReceiveResult {
  const verified = verifyEnvelope(payload, trusted);
  if (!verified.ok) return { ok: false, reason: verified.reason, ...readOfferClaims(payload) };
  const m = verified.manifest;
  const check = checkOffer(m, lift, now);
  if (!check.ok)
    return {
      ok: false,
      reason: check.reason,
      packageId: m.packageId,
      version: m.version,
      offerSeq: m.seq,
    };
  return { ok: true, manifest: m, action: check.action };
}
