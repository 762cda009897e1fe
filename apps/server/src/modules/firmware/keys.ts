import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  firmwareKeyId,
  firmwarePublicKey,
  generateFirmwareKeyPair,
  rawPublicKey,
} from '@liftlink/protocol/firmware-signature';
import type { Config } from '../../config.ts';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { insertSigningKey, signingKeyRow } from './repository.ts';

/**
 * The organizations' Ed25519 signing keys (docs/firmware.md). Either one key from
 * FIRMWARE_SIGNING_KEY_FILE signs for every organization, or each manufacturer organization
 * gets its own on first use, kept in the database encrypted with AES-256-GCM under a key
 * derived (HKDF-SHA256) from FIRMWARE_KEY_SECRET. Without that variable the embedded mode
 * creates a random secret in DATA_DIR (mode 0600) on first use and says production must set
 * it; with DATABASE_URL (several instances share the keys) it refuses instead.
 */

/** The secret file of the embedded mode, in DATA_DIR. */
export const KEY_SECRET_FILE = 'firmware-key-secret';

export interface SigningKey {
  orgId: string;
  keyId: string;
  /** Raw 32 bytes, standard base64. */
  publicKey: string;
  privateKey: KeyObject;
  source: 'generated' | 'file';
}

/** Reads FIRMWARE_SIGNING_KEY_FILE; throws a message naming the variable when it is not an Ed25519 private key. */
export function readSigningKeyFile(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (err) {
    throw new Error(
      `FIRMWARE_SIGNING_KEY_FILE: cannot read a PEM private key from ${file} (${(err as Error).message})`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `FIRMWARE_SIGNING_KEY_FILE: ${file} holds a ${key.asymmetricKeyType ?? 'unknown'} key, not an Ed25519 one`,
    );
  return key;
}

const aad = (orgId: string, keyId: string) =>
  Buffer.from(`liftlink-firmware-key:${orgId}:${keyId}`, 'utf8');

export function encryptPrivateKey(
  secret: Buffer,
  orgId: string,
  keyId: string,
  der: Buffer,
): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  cipher.setAAD(aad(orgId, keyId));
  const body = Buffer.concat([cipher.update(der), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The PKCS#8 DER, or null when the secret (or the row's organization and key id) does not match. */
export function decryptPrivateKey(
  secret: Buffer,
  orgId: string,
  keyId: string,
  stored: Uint8Array,
): Buffer | null {
  const data = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (data.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, data.subarray(0, 12));
    decipher.setAAD(aad(orgId, keyId));
    decipher.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]);
  } catch {
    return null;
  }
}

export class FirmwareKeys {
  private secret: Buffer | null = null;
  private readonly fileKey: KeyObject | null;
  private readonly cache = new Map<string, SigningKey>();

  constructor(
    private readonly config: Config,
    private readonly sql: SqlExecutor,
    private readonly log: FastifyBaseLogger,
  ) {
    this.fileKey = config.firmware.signingKeyFile
      ? readSigningKeyFile(config.firmware.signingKeyFile)
      : null;
  }

  /** The AES key: from FIRMWARE_KEY_SECRET, or the embedded mode's secret file (created on first use). */
  private encryptionKey(): Buffer {
    if (this.secret) return this.secret;
    let material = this.config.firmware.keySecret;
    if (!material) {
      if (this.config.databaseUrl) throw new AppError('firmware.keySecretMissing');
      const file = path.join(this.config.dataDir, KEY_SECRET_FILE);
      try {
        material = readFileSync(file, 'utf8').trim();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        material = randomBytes(32).toString('base64');
        writeFileSync(file, `${material}\n`, { mode: 0o600, flag: 'wx' });
        this.log.warn(
          { file },
          'FIRMWARE_KEY_SECRET is not set: created a random secret for the firmware signing keys in DATA_DIR; production must set FIRMWARE_KEY_SECRET (and keep it with the database backups)',
        );
      }
    }
    this.secret = Buffer.from(
      hkdfSync('sha256', material, 'liftlink', 'firmware-signing-keys', 32),
    );
    return this.secret;
  }

  /** The organization's key, generated and stored on first use (two instances racing keep one). */
  async forOrg(orgId: string): Promise<SigningKey> {
    if (this.fileKey) {
      const publicKey = rawPublicKey(this.fileKey);
      return {
        orgId,
        keyId: firmwareKeyId(this.fileKey),
        publicKey,
        privateKey: this.fileKey,
        source: 'file',
      };
    }
    const cached = this.cache.get(orgId);
    if (cached) return cached;
    const secret = this.encryptionKey();
    let row = await signingKeyRow(this.sql, orgId);
    if (!row) {
      const pair = generateFirmwareKeyPair();
      const der = createPrivateKey(pair.privateKey).export({ format: 'der', type: 'pkcs8' });
      await insertSigningKey(this.sql, {
        orgId,
        keyId: pair.keyId,
        publicKey: pair.publicKey,
        privateKeyEnc: encryptPrivateKey(secret, orgId, pair.keyId, der),
      });
      row = await signingKeyRow(this.sql, orgId);
    }
    const der = decryptPrivateKey(secret, orgId, row!.key_id, row!.private_key_enc);
    if (!der) throw new AppError('firmware.keySecretWrong');
    const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    // The stored public half must be the private key's: a row edited by hand is refused, not used.
    if (rawPublicKey(firmwarePublicKey(privateKey)) !== row!.public_key)
      throw new AppError('firmware.keySecretWrong');
    const key: SigningKey = {
      orgId,
      keyId: row!.key_id,
      publicKey: row!.public_key,
      privateKey,
      source: 'generated',
    };
    this.cache.set(orgId, key);
    return key;
  }
}
