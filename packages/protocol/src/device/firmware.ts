import { z } from 'zod';
import { DEFAULT_LANGUAGE } from '../constants.ts';
import { TOPIC_RULES } from '../mqtt/topics.ts';
import { firmwareSchema, MAX_PAYLOAD_BYTES, seqSchema, timestampSchema } from '../mqtt/wire.ts';
import { DEVICE_KINDS, deviceKindSchema, deviceNoSchema, type DeviceKind } from './kinds.ts';
import type { LiftStatus } from './status.ts';
import { localized, pickText, type LocalizedText } from './texts.ts';

/**
 * Firmware updates over the air (docs/protocol.md section 11). The cloud sends one lift a
 * manifest signed with the manufacturer's Ed25519 key; the lift checks it, downloads the
 * image over HTTPS (ranged, resumable), checks its hash, and installs it into its inactive
 * slot (A/B) only when its own interlocks allow. The cloud never forces an install.
 *
 * Everything here is pure and environment-neutral (the web client bundles it); signing and
 * verifying need node:crypto and live in `firmware-signature.ts`, imported by path.
 */

// ---------------------------------------------------------------------------------------
// Topics and limits

/** The two topics of the update, under `lifts/{deviceNo}/`; their rules are the broker's (`TOPIC_RULES`). */
export const FIRMWARE_OFFER_TOPIC = 'firmware/offer';
export const FIRMWARE_STATE_TOPIC = 'firmware/state';
export type FirmwareTopicKind = typeof FIRMWARE_OFFER_TOPIC | typeof FIRMWARE_STATE_TOPIC;
export const FIRMWARE_TOPICS = {
  [FIRMWARE_OFFER_TOPIC]: TOPIC_RULES[FIRMWARE_OFFER_TOPIC],
  [FIRMWARE_STATE_TOPIC]: TOPIC_RULES[FIRMWARE_STATE_TOPIC],
} as const;

/** The version of the manifest and state-report format (`v`); a lift refuses a manifest of another version (`badManifest`). */
export const FIRMWARE_FORMAT_VERSION = 1;
/** The largest image: the inactive slot of the controllers built today is 64 MiB. */
export const FIRMWARE_MAX_BYTES = 64 * 1024 * 1024;
/** The largest manifest string. A manifest is about 700 bytes; escaped inside the offer it stays far below MAX_PAYLOAD_BYTES. */
export const FIRMWARE_MANIFEST_MAX_BYTES = 4096;
/** Offer numbers (`seq`) are positive 32-bit integers, so a controller keeps them in one flash word. */
export const FIRMWARE_SEQ_MAX = 2_147_483_647;
/** The longest a download token may be valid after the manifest was issued; the cloud issues shorter ones (FIRMWARE_TOKEN_TTL_MS). */
export const FIRMWARE_TOKEN_MAX_MS = 7 * 24 * 3_600_000;
/** What the cloud gives a token: enough to download 64 MiB over a slow mobile link with pauses, short enough to be useless once leaked. */
export const FIRMWARE_TOKEN_TTL_MS = 24 * 3_600_000;
/** The longest installation window. */
export const FIRMWARE_WINDOW_MAX_MS = 31 * 24 * 3_600_000;
/** A lift reports download progress at most every this many percent (and at 100), not per chunk. */
export const FIRMWARE_PROGRESS_STEP_PERCENT = 5;
/** Transient download errors (connection lost, 5xx, 429) are retried this many times, resuming, before `downloadFailed`. */
export const FIRMWARE_DOWNLOAD_ATTEMPTS = 8;
/** Waits between deferred install attempts (and between download retries): attempt n waits in [b/2, b), b = min(cap, base · 2^(n−1)). */
export const FIRMWARE_RETRY = { baseMs: 60_000, capMs: 30 * 60_000 } as const;
/**
 * A new image must confirm itself this long after it first boots (its self-test passed and
 * it has connected to the broker), or the bootloader boots the previous slot again. It must
 * reach the cloud: an image that cannot could never be updated again.
 */
export const FIRMWARE_CONFIRM_MS = 10 * 60_000;
/** `firmwareInterlockFacts`: a load above this many kg counts as a load on the platform (tare drift stays below it). */
export const FIRMWARE_LOADED_KG = 10;

// ---------------------------------------------------------------------------------------
// Versions

/**
 * A firmware version: an optional line prefix (upper case, e.g. `FW-`, `SIM-`) and
 * MAJOR.MINOR.PATCH without leading zeros, so that equal numbers are equal strings. At most
 * 29 characters: it fits the existing 32-character firmware field of lifts and the bench.
 */
const VERSION_PATTERN =
  /^(?:([A-Z][A-Z0-9]{0,7})-)?(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
export const firmwareVersionSchema = z
  .string()
  .regex(VERSION_PATTERN, 'validation.firmwareVersion');
export type FirmwareVersion = { prefix: string; numbers: [number, number, number] };

/** The parts of a version, or null for a string that is not one (a legacy or empty firmware field). */
export function parseFirmwareVersion(version: string): FirmwareVersion | null {
  const m = VERSION_PATTERN.exec(version);
  if (!m) return null;
  return { prefix: m[1] ?? '', numbers: [Number(m[2]), Number(m[3]), Number(m[4])] };
}

function compareNumbers(a: FirmwareVersion, b: FirmwareVersion): number {
  for (let i = 0; i < 3; i += 1)
    if (a.numbers[i] !== b.numbers[i]) return a.numbers[i]! < b.numbers[i]! ? -1 : 1;
  return 0;
}

/**
 * A total order on every string, for sorting: versions by their numbers (1.10.0 after
 * 1.9.0), equal numbers by prefix (`1.0.0` < `FW-1.0.0` < `SIM-1.0.0`); strings that are not
 * versions before all versions, by code unit. 0 only for equal strings.
 */
export function compareFirmwareVersions(a: string, b: string): -1 | 0 | 1 {
  const pa = parseFirmwareVersion(a);
  const pb = parseFirmwareVersion(b);
  if (pa && pb) {
    const n = compareNumbers(pa, pb);
    if (n !== 0) return n < 0 ? -1 : 1;
    return pa.prefix === pb.prefix ? 0 : pa.prefix < pb.prefix ? -1 : 1;
  }
  if (pa) return 1;
  if (pb) return -1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Whether `running` is at least `minimum`, by the numbers alone: the prefix names a build
 * line, not a rank. False when either is not a version: a lift that cannot name its version
 * cannot show it is new enough.
 */
export function firmwareAtLeast(running: string, minimum: string): boolean {
  const r = parseFirmwareVersion(running);
  const m = parseFirmwareVersion(minimum);
  return r !== null && m !== null && compareNumbers(r, m) >= 0;
}

// ---------------------------------------------------------------------------------------
// The manifest

/** Package and campaign ids (the cloud uses UUIDs). */
export const firmwareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'validation.invalid');
/** An offer number: per lift, grows with every offer the cloud issues to it. */
export const offerSeqSchema = z.number().int().positive().max(FIRMWARE_SEQ_MAX);
export const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'validation.invalid');
/** A bearer token (RFC 6750 characters), opaque to the lift. */
export const downloadTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~+/-]{16,1024}={0,2}$/, 'validation.invalid');

/**
 * Manifest times: UTC with milliseconds, exactly as `Date.prototype.toISOString` writes them,
 * so that one instant has one spelling in the signed string.
 */
export const firmwareTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'validation.invalid')
  .refine((t) => {
    const ms = Date.parse(t);
    return t >= '1970' && !Number.isNaN(ms) && new Date(ms).toISOString() === t;
  }, 'validation.invalid');
export const firmwareTime = (date: Date): string => date.toISOString();

// Characters of a URL path and query (RFC 3986) without quotes and backslashes: the canonical
// manifest never needs a JSON escape.
const URL_PATH = /^\/(?!\/)[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$/;
const URL_ABSOLUTE = /^https:\/\/[A-Za-z0-9._~!$&'()*+,;=:@%/?[\]-]+$/;

/**
 * Where to download the image: a path on the cloud's HTTPS address (`/api/...`, resolved
 * against the address the lift was given at provisioning) or an absolute `https://` URL
 * (a CDN). No credentials and no fragment in it: the token travels in a header.
 */
export const downloadUrlSchema = z
  .string()
  .max(512, 'validation.tooLong')
  .refine((u) => {
    if (URL_PATH.test(u)) return true;
    if (!URL_ABSOLUTE.test(u)) return false;
    try {
      const url = new URL(u);
      return (
        url.protocol === 'https:' &&
        url.hostname !== '' &&
        url.username === '' &&
        url.password === '' &&
        url.hash === ''
      );
    } catch {
      return false;
    }
  }, 'validation.invalid');

/** `url` against the lift's HTTPS base address (`https://cloud.example.com`); an absolute `url` stands alone. */
export function resolveDownloadUrl(url: string, base: string): string {
  return new URL(url, base).toString();
}

export const firmwareWindowSchema = z
  .strictObject({ start: firmwareTimeSchema, end: firmwareTimeSchema })
  .superRefine((w, ctx) => {
    const length = Date.parse(w.end) - Date.parse(w.start);
    if (!(length > 0))
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'validation.invalid' });
    else if (length > FIRMWARE_WINDOW_MAX_MS)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'validation.tooLong' });
  });
/** When the lift may install: from `start` (inclusive) to `end` (exclusive), UTC. Without a window, any time. */
export type FirmwareWindow = z.infer<typeof firmwareWindowSchema>;

/**
 * The manifest: what the cloud offers one lift (`deviceNo`), signed by the manufacturer.
 * `kinds`: the lift kinds the image is built for, each once, in `DEVICE_KINDS` order.
 * `minVersion`: the lowest version the image may be installed over. `seq`: the offer number
 * against replays. `window`: when the lift may install.
 */
export const firmwareManifestSchema = z
  .strictObject({
    v: z.literal(FIRMWARE_FORMAT_VERSION),
    campaignId: firmwareIdSchema.optional(),
    packageId: firmwareIdSchema,
    deviceNo: deviceNoSchema,
    seq: offerSeqSchema,
    kinds: z.array(deviceKindSchema).min(1).max(DEVICE_KINDS.length),
    version: firmwareVersionSchema,
    minVersion: firmwareVersionSchema,
    size: z.number().int().min(1).max(FIRMWARE_MAX_BYTES),
    sha256: sha256HexSchema,
    url: downloadUrlSchema,
    token: downloadTokenSchema,
    tokenExpiresAt: firmwareTimeSchema,
    issuedAt: firmwareTimeSchema,
    window: firmwareWindowSchema.optional(),
  })
  .superRefine((m, ctx) => {
    if (new Set(m.kinds).size !== m.kinds.length)
      ctx.addIssue({ code: 'custom', path: ['kinds'], message: 'validation.invalid' });
    const lifetime = Date.parse(m.tokenExpiresAt) - Date.parse(m.issuedAt);
    if (!(lifetime > 0 && lifetime <= FIRMWARE_TOKEN_MAX_MS))
      ctx.addIssue({ code: 'custom', path: ['tokenExpiresAt'], message: 'validation.invalid' });
  });
export type FirmwareManifest = z.infer<typeof firmwareManifestSchema>;

/** The canonical key order; the window's keys are `start`, `end`. */
export const FIRMWARE_MANIFEST_KEYS = [
  'v',
  'campaignId',
  'packageId',
  'deviceNo',
  'seq',
  'kinds',
  'version',
  'minVersion',
  'size',
  'sha256',
  'url',
  'token',
  'tokenExpiresAt',
  'issuedAt',
  'window',
] as const;

function serializeManifest(m: FirmwareManifest): string {
  const ordered: Record<string, unknown> = {};
  for (const key of FIRMWARE_MANIFEST_KEYS) {
    const value = m[key];
    if (value === undefined) continue;
    if (key === 'kinds') ordered.kinds = DEVICE_KINDS.filter((k) => m.kinds.includes(k));
    else if (key === 'window') ordered.window = { start: m.window!.start, end: m.window!.end };
    else ordered[key] = value;
  }
  return JSON.stringify(ordered);
}

/**
 * The canonical manifest string, the exact bytes the signature covers: JSON without
 * whitespace, keys in FIRMWARE_MANIFEST_KEYS order, absent optional keys left out, `kinds`
 * in DEVICE_KINDS order. Every value is ASCII without quotes or backslashes, so the string
 * needs no escapes and is its own UTF-8. Throws on an invalid manifest (a bug of the signer).
 */
export function canonicalManifest(manifest: FirmwareManifest): string {
  const parsed = firmwareManifestSchema.safeParse(manifest);
  if (!parsed.success)
    throw new TypeError(
      `invalid firmware manifest: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
    );
  return serializeManifest(parsed.data);
}

/**
 * Reads a manifest string whose signature has been verified. Never throws. Refuses
 * (`badManifest`) anything but a canonical manifest: duplicate keys, reordered keys,
 * whitespace or escapes could make two parsers (this one and a controller's) read different
 * values from the same signed bytes.
 */
export function parseManifestText(
  text: string,
): { ok: true; manifest: FirmwareManifest } | { ok: false; reason: 'badManifest' } {
  const bad = { ok: false, reason: 'badManifest' } as const;
  if (typeof text !== 'string' || text.length > FIRMWARE_MANIFEST_MAX_BYTES) return bad;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad;
  }
  const parsed = firmwareManifestSchema.safeParse(json);
  if (!parsed.success || serializeManifest(parsed.data) !== text) return bad;
  return { ok: true, manifest: parsed.data };
}

// ---------------------------------------------------------------------------------------
// The signed offer (`firmware/offer`)

/** A key id: the first 16 hex digits of the SHA-256 of the raw 32-byte Ed25519 public key. */
export const firmwareKeyIdSchema = z.string().regex(/^[0-9a-f]{16}$/, 'validation.invalid');

/**
 * The payload of `firmware/offer`: the canonical manifest as a string, the Ed25519 signature
 * of its bytes (64 bytes, standard base64 with padding, in its one canonical spelling), and
 * the id of the key that made it. The lift verifies before it parses the manifest string.
 */
export const firmwareEnvelopeSchema = z.strictObject({
  manifest: z.string().min(2).max(FIRMWARE_MANIFEST_MAX_BYTES),
  signature: z.string().regex(/^[A-Za-z0-9+/]{85}[AQgw]==$/, 'validation.invalid'),
  keyId: firmwareKeyIdSchema,
});
export type FirmwareEnvelope = z.infer<typeof firmwareEnvelopeSchema>;

// fatal: bytes that are not UTF-8 are refused like malformed JSON (no Buffer: this module also runs in browsers)
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The offer in an MQTT payload (bytes or text) or an already parsed object, or null. Never throws. */
export function parseFirmwareEnvelope(payload: unknown): FirmwareEnvelope | null {
  let json = payload;
  if (typeof payload === 'string' || payload instanceof Uint8Array) {
    const length = typeof payload === 'string' ? payload.length : payload.byteLength;
    if (length > MAX_PAYLOAD_BYTES) return null;
    try {
      json = JSON.parse(typeof payload === 'string' ? payload : utf8.decode(payload));
    } catch {
      return null;
    }
  }
  const parsed = firmwareEnvelopeSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * What an offer that failed verification claims to be, for the lift's refusal report: each
 * field only if it is readable and valid, else null. Never trusted: the cloud only uses it
 * to find the offer it sent.
 */
export function readOfferClaims(payload: unknown): {
  packageId: string | null;
  version: string | null;
  offerSeq: number | null;
} {
  const claims = {
    packageId: null as string | null,
    version: null as string | null,
    offerSeq: null as number | null,
  };
  const offer = parseFirmwareEnvelope(payload);
  if (!offer) return claims;
  let json: unknown;
  try {
    json = JSON.parse(offer.manifest);
  } catch {
    return claims;
  }
  if (typeof json !== 'object' || json === null) return claims;
  const m = json as Record<string, unknown>;
  const id = firmwareIdSchema.safeParse(m.packageId);
  const version = firmwareVersionSchema.safeParse(m.version);
  const seq = offerSeqSchema.safeParse(m.seq);
  return {
    packageId: id.success ? id.data : null,
    version: version.success ? version.data : null,
    offerSeq: seq.success ? seq.data : null,
  };
}

// ---------------------------------------------------------------------------------------
// Reasons

/**
 * Why a lift waits (`deferred`), in the order `installBlocker` checks them: the planned
 * window first (the cloud's own choice, and nothing else matters outside it), then a person
 * (an engineer's lock-out, a call for help), then what the lift is doing (a trip explains
 * being loaded and between landings better than either), then its position and form.
 */
export const FIRMWARE_INTERLOCKS = [
  'outsideWindow',
  'lockedOut',
  'helpSignal',
  'inTrip',
  'loaded',
  'notAtLanding',
  'notFolded',
] as const;
export type FirmwareInterlock = (typeof FIRMWARE_INTERLOCKS)[number];

/** Refusals of an offer, in the order the lift checks them (`receiveOffer`, `checkOffer`). */
export const FIRMWARE_OFFER_REFUSALS = [
  'badManifest',
  'unknownKey',
  'badSignature',
  'wrongLift',
  'wrongKind',
  'replayed',
  'expiredToken',
  'windowClosed',
  'belowMinimum',
] as const;
export type FirmwareOfferRefusal = (typeof FIRMWARE_OFFER_REFUSALS)[number];
/** Refusals decided before the manifest could be trusted: the report's package, version and offer number are only claims (or null). */
export const FIRMWARE_UNVERIFIED_REFUSALS: readonly FirmwareOfferRefusal[] = [
  'badManifest',
  'unknownKey',
  'badSignature',
];

/** Why an update that was accepted did not happen; the lift stays on (or, after `bootFailed`, returns to) its working image. */
export const FIRMWARE_FAILURES = [
  ...FIRMWARE_OFFER_REFUSALS,
  'tokenRefused',
  'withdrawn',
  'downloadFailed',
  'truncated',
  'sizeMismatch',
  'hashMismatch',
  'installFailed',
  'bootFailed',
  'superseded',
] as const;
export type FirmwareFailure = (typeof FIRMWARE_FAILURES)[number];
/** The reasons of `rolledBack`: the new image was switched to and the bootloader went back to the previous slot. */
export const FIRMWARE_ROLLBACK_REASONS: readonly FirmwareFailure[] = [
  'bootFailed',
  'installFailed',
];

export type FirmwareReason = FirmwareInterlock | FirmwareFailure;
export const firmwareInterlockSchema = z.enum(FIRMWARE_INTERLOCKS);
export const firmwareFailureSchema = z.enum(FIRMWARE_FAILURES);
export const firmwareReasonSchema = z.enum([...FIRMWARE_INTERLOCKS, ...FIRMWARE_FAILURES]);

/** The interlocks in words (the engineer's page, the lift's logbook). */
export const FIRMWARE_INTERLOCK_TEXTS: Record<FirmwareInterlock, LocalizedText> = {
  outsideWindow: localized(
    '不在安装时间窗口内',
    'Outside the installation window',
    'Вне окна установки',
  ),
  lockedOut: localized(
    '设备已被维修人员锁定',
    'An engineer has locked the lift out',
    'Лифт заблокирован инженером',
  ),
  helpSignal: localized(
    '求助信号处于激活状态',
    'A help signal is active',
    'Активен сигнал вызова помощи',
  ),
  inTrip: localized(
    '设备正在运行或测试',
    'The lift is on a trip or running a test',
    'Лифт в поездке или выполняет тест',
  ),
  loaded: localized('平台上有负载', 'There is a load on the platform', 'На платформе есть груз'),
  notAtLanding: localized(
    '平台未停在层站',
    'The platform is not at a landing',
    'Платформа не на этажной площадке',
  ),
  notFolded: localized('平台未折叠', 'The platform is not folded', 'Платформа не сложена'),
};

/** The failures in words. */
export const FIRMWARE_FAILURE_TEXTS: Record<FirmwareFailure, LocalizedText> = {
  badManifest: localized(
    '升级清单格式无效',
    'The update offer is malformed',
    'Предложение обновления повреждено',
  ),
  unknownKey: localized(
    '设备不信任此签名密钥',
    'The lift does not trust the signing key',
    'Лифт не доверяет ключу подписи',
  ),
  badSignature: localized(
    '升级清单签名无效',
    'The signature of the offer is not valid',
    'Подпись предложения недействительна',
  ),
  wrongLift: localized(
    '该升级指令是发给其他设备的',
    'The offer is addressed to another lift',
    'Предложение адресовано другому лифту',
  ),
  wrongKind: localized(
    '该固件包不适用于此设备类型',
    'The package is not made for this kind of lift',
    'Пакет не предназначен для этого типа лифта',
  ),
  replayed: localized(
    '收到的是旧的升级指令',
    'An old offer was sent again',
    'Повторно получено старое предложение',
  ),
  expiredToken: localized(
    '下载凭证已过期',
    'The download token has expired',
    'Срок действия токена загрузки истёк',
  ),
  windowClosed: localized(
    '安装时间窗口已结束',
    'The installation window has closed',
    'Окно установки закрылось',
  ),
  belowMinimum: localized(
    '当前固件低于该升级包要求的最低版本',
    "The running firmware is older than the package's minimum version",
    'Текущая прошивка старше минимальной версии пакета',
  ),
  tokenRefused: localized(
    '服务器拒绝了下载凭证',
    'The server refused the download token',
    'Сервер отклонил токен загрузки',
  ),
  withdrawn: localized('该固件包已撤回', 'The package has been withdrawn', 'Пакет отозван'),
  downloadFailed: localized('下载失败', 'The download failed', 'Загрузка не удалась'),
  truncated: localized(
    '下载中断，固件不完整',
    'The download ended before the image was complete',
    'Загрузка оборвалась до конца образа',
  ),
  sizeMismatch: localized(
    '固件大小与清单不符',
    'The image size differs from the manifest',
    'Размер образа не совпадает с манифестом',
  ),
  hashMismatch: localized(
    '固件校验失败（SHA-256 不符）',
    'The image is corrupted (SHA-256 mismatch)',
    'Образ повреждён (SHA-256 не совпадает)',
  ),
  installFailed: localized(
    '写入新固件失败',
    'Writing the new firmware failed',
    'Не удалось записать новую прошивку',
  ),
  bootFailed: localized(
    '新固件未能启动，已恢复原固件',
    'The new firmware did not start; the previous one runs again',
    'Новая прошивка не запустилась; снова работает прежняя',
  ),
  superseded: localized(
    '已被更新的升级指令取代',
    'A newer offer replaced this one',
    'Заменено более новым предложением',
  ),
};

/**
 * What the engineer can do next, shown under the reason. An interlock clears by itself; its
 * advice says so, or what would clear it sooner.
 */
export const FIRMWARE_ADVICE: Partial<Record<FirmwareReason, LocalizedText>> = {
  outsideWindow: localized(
    '设备将在时间窗口开始后自动安装，无需操作。',
    'The lift installs once the window opens; nothing to do.',
    'Лифт установит обновление, когда откроется окно; ничего делать не нужно.',
  ),
  lockedOut: localized(
    '维修人员解除锁定后，设备将继续升级。',
    'The update continues once the engineer releases the lock-out.',
    'Обновление продолжится, когда инженер снимет блокировку.',
  ),
  helpSignal: localized(
    '请先确认乘客情况；求助信号解除后设备再升级。',
    'Check on the passenger first; the lift waits until the help signal is cleared.',
    'Сначала проверьте пассажира; лифт ждёт, пока сигнал вызова помощи не будет снят.',
  ),
  inTrip: localized(
    '设备空闲后会自动安装，无需操作。',
    'The lift installs on its own when it is idle; nothing to do.',
    'Лифт установит обновление сам, когда освободится; ничего делать не нужно.',
  ),
  loaded: localized(
    '平台卸载后设备会自动安装。',
    'The lift installs once the platform is empty.',
    'Лифт установит обновление, когда платформа опустеет.',
  ),
  notAtLanding: localized(
    '将平台召唤到层站，或等待下次使用后停靠层站。',
    'Call the platform to a landing, or wait until it next stops at one.',
    'Вызовите платформу на площадку или дождитесь, пока она там остановится.',
  ),
  notFolded: localized(
    '将平台折叠，或等待使用后自动折叠。',
    'Fold the platform, or wait until it folds after use.',
    'Сложите платформу или дождитесь, пока она сложится после использования.',
  ),
  badManifest: localized(
    '请联系制造商：服务器发送了设备无法读取的升级指令。',
    'Tell the manufacturer: the server sent an offer the lift cannot read.',
    'Сообщите производителю: сервер отправил предложение, которое лифт не может прочитать.',
  ),
  unknownKey: localized(
    '该设备出厂时未写入此签名密钥。请使用设备信任的密钥签名，或在产线测试台写入新密钥。',
    'The lift was not given this signing key at the factory bench. Sign with a key the lift trusts, or write the new key at the bench.',
    'Этот ключ подписи не записан в лифт на заводском стенде. Подпишите ключом, которому лифт доверяет, или запишите новый ключ на стенде.',
  ),
  badSignature: localized(
    '请勿重试：升级指令在途中被篡改或签名密钥不符。请通知制造商。',
    'Do not retry: the offer was altered on the way or signed with another key. Tell the manufacturer.',
    'Не повторяйте: предложение изменено в пути или подписано другим ключом. Сообщите производителю.',
  ),
  wrongLift: localized(
    '请通知制造商：升级指令发给了错误的设备。',
    'Tell the manufacturer: the offer reached the wrong lift.',
    'Сообщите производителю: предложение попало не тому лифту.',
  ),
  wrongKind: localized(
    '请选择适用于此设备类型的固件包。',
    'Choose a package made for this kind of lift.',
    'Выберите пакет для этого типа лифта.',
  ),
  replayed: localized(
    '请重新发送升级：新的升级指令会带有更新的编号。',
    'Send the update again: a new offer carries a newer number.',
    'Отправьте обновление снова: новое предложение получит новый номер.',
  ),
  expiredToken: localized(
    '请重新发送升级以获取新的下载凭证；如反复出现，请检查设备时钟。',
    "Send the update again for a new download token; if this repeats, check the lift's clock.",
    'Отправьте обновление снова, чтобы получить новый токен; если повторяется, проверьте часы лифта.',
  ),
  windowClosed: localized(
    '请设置新的时间窗口后重新发送升级。',
    'Send the update again with a new window.',
    'Отправьте обновление снова с новым окном.',
  ),
  belowMinimum: localized(
    '请先升级到中间版本。',
    'Install an intermediate version first.',
    'Сначала установите промежуточную версию.',
  ),
  tokenRefused: localized(
    '请重新发送升级。',
    'Send the update again.',
    'Отправьте обновление снова.',
  ),
  withdrawn: localized('请选择其他固件包。', 'Choose another package.', 'Выберите другой пакет.'),
  downloadFailed: localized(
    '请检查设备网络后重新发送升级；下载将从中断处继续。',
    "Check the lift's connection and send the update again; the download resumes where it stopped.",
    'Проверьте связь лифта и отправьте обновление снова; загрузка продолжится с места остановки.',
  ),
  truncated: localized(
    '请重新发送升级；下载将从中断处继续。',
    'Send the update again; the download resumes where it stopped.',
    'Отправьте обновление снова; загрузка продолжится с места остановки.',
  ),
  sizeMismatch: localized(
    '请重新发送升级；如反复出现，请检查固件包和网络中的代理。',
    'Send the update again; if this repeats, check the package and any proxy on the way.',
    'Отправьте обновление снова; если повторяется, проверьте пакет и прокси на пути.',
  ),
  hashMismatch: localized(
    '请重新发送升级；如反复出现，请检查固件包和网络中的代理。',
    'Send the update again; if this repeats, check the package and any proxy on the way.',
    'Отправьте обновление снова; если повторяется, проверьте пакет и прокси на пути.',
  ),
  installFailed: localized(
    '设备仍运行原固件。如反复出现，请现场检查设备存储。',
    'The lift still runs its working firmware. If this repeats, check its storage on site.',
    'Лифт работает на прежней прошивке. Если повторяется, проверьте память лифта на месте.',
  ),
  bootFailed: localized(
    '设备已恢复原固件。再次发送此固件包前请通知制造商。',
    'The lift runs its previous firmware again. Tell the manufacturer before offering this package again.',
    'Лифт снова работает на прежней прошивке. Сообщите производителю, прежде чем снова предлагать этот пакет.',
  ),
};

/** The reason in `lang` (zh-CN for an unknown language; the code itself for an unknown reason). */
export function firmwareReasonText(reason: string, lang: string = DEFAULT_LANGUAGE): string {
  const text =
    (FIRMWARE_INTERLOCK_TEXTS as Record<string, LocalizedText | undefined>)[reason] ??
    (FIRMWARE_FAILURE_TEXTS as Record<string, LocalizedText | undefined>)[reason];
  return text ? pickText(text, lang) : reason;
}

/** The advice after a reason in `lang`, or null when there is none. */
export function firmwareReasonAdvice(
  reason: string,
  lang: string = DEFAULT_LANGUAGE,
): string | null {
  const text = (FIRMWARE_ADVICE as Record<string, LocalizedText | undefined>)[reason];
  return text ? pickText(text, lang) : null;
}

// ---------------------------------------------------------------------------------------
// The lift's decisions

/** What the lift knows about itself when an offer arrives. `lastSeq`: the offer number it last accepted (0: none); kept in flash. */
export interface LiftFirmwareFacts {
  deviceNo: string;
  kind: DeviceKind;
  runningVersion: string;
  lastSeq: number;
  /** The package of the offer numbered `lastSeq`: the same offer again (an MQTT redelivery) is a duplicate, not a replay. */
  lastPackageId?: string;
}

/**
 * `install`: start (queued, then download). `alreadyRunning`: the lift runs this version;
 * it reports `done` at once and drops any pending update (how the cloud cancels one).
 * `duplicate`: the offer it accepted last, delivered again: it reports its current state
 * and changes nothing.
 */
export type OfferAction = 'install' | 'alreadyRunning' | 'duplicate';
export type OfferCheck =
  { ok: true; action: OfferAction } | { ok: false; reason: FirmwareOfferRefusal };

/** Whether the window ended at or before `now`: the update can no longer be installed. */
export function firmwareWindowClosed(window: FirmwareWindow | undefined, now: Date): boolean {
  return window !== undefined && now.getTime() >= Date.parse(window.end);
}

/**
 * The lift's check of a verified manifest, first failing check wins:
 * 1. `wrongLift`: addressed to another device number (its offer number is another lift's count);
 * 2. `wrongKind`: not built for this lift's kind;
 * 3. `replayed`: `seq` not above the last accepted one (the same offer again: `duplicate`);
 * then `alreadyRunning` when the lift runs `version` (it needs neither token nor window);
 * 4. `expiredToken`: the token expired by the lift's clock;
 * 5. `windowClosed`: the installation window has ended;
 * 6. `belowMinimum`: the running version is below `minVersion` (or is no version).
 * What never changes for this lift comes first, then freshness, then the version.
 * Accepting (`install`, `alreadyRunning`) makes `seq` the lift's `lastSeq`.
 */
export function checkOffer(
  manifest: FirmwareManifest,
  lift: LiftFirmwareFacts,
  now: Date,
): OfferCheck {
  if (manifest.deviceNo !== lift.deviceNo) return { ok: false, reason: 'wrongLift' };
  if (!manifest.kinds.includes(lift.kind)) return { ok: false, reason: 'wrongKind' };
  if (manifest.seq === lift.lastSeq && manifest.packageId === lift.lastPackageId)
    return { ok: true, action: 'duplicate' };
  if (manifest.seq <= lift.lastSeq) return { ok: false, reason: 'replayed' };
  // Nothing to download or install: token and window do not matter.
  if (manifest.version === lift.runningVersion) return { ok: true, action: 'alreadyRunning' };
  if (now.getTime() >= Date.parse(manifest.tokenExpiresAt))
    return { ok: false, reason: 'expiredToken' };
  if (firmwareWindowClosed(manifest.window, now)) return { ok: false, reason: 'windowClosed' };
  if (!firmwareAtLeast(lift.runningVersion, manifest.minVersion))
    return { ok: false, reason: 'belowMinimum' };
  return { ok: true, action: 'install' };
}

/** The lift's interlock inputs; all false but `atLanding` and `folded` when it stands idle and empty. */
export interface FirmwareInterlockFacts {
  atLanding: boolean;
  folded: boolean;
  loaded: boolean;
  helpSignal: boolean;
  inTrip: boolean;
  lockedOut: boolean;
}

/**
 * The first reason not to install now (FIRMWARE_INTERLOCKS order), or null: install. The
 * window is `[start, end)`; a closed window also blocks (`outsideWindow`): the lift then
 * gives up with `windowClosed` (`firmwareWindowClosed`).
 */
export function installBlocker(
  facts: FirmwareInterlockFacts,
  window: FirmwareWindow | undefined,
  now: Date,
): FirmwareInterlock | null {
  if (window && (now.getTime() < Date.parse(window.start) || firmwareWindowClosed(window, now)))
    return 'outsideWindow';
  if (facts.lockedOut) return 'lockedOut';
  if (facts.helpSignal) return 'helpSignal';
  if (facts.inTrip) return 'inTrip';
  if (facts.loaded) return 'loaded';
  if (!facts.atLanding) return 'notAtLanding';
  if (!facts.folded) return 'notFolded';
  return null;
}

/**
 * The interlock inputs read from a status snapshot, as the simulator and the cloud's "would
 * it install now" hint see them; a controller reads its own inputs directly. A running test
 * (debug mode) or aging loop counts as a trip; the alarm button as a help signal.
 */
export function firmwareInterlockFacts(status: LiftStatus): FirmwareInterlockFacts {
  const p = status.platform;
  return {
    atLanding: status.floor !== null,
    folded: p.deformation === 'folded',
    loaded: p.overloaded || p.loadValue > FIRMWARE_LOADED_KG,
    helpSignal: p.helpSignal || status.housing.io.alarmButton,
    inTrip:
      status.targetFloor !== null ||
      p.movement !== 'stop' ||
      status.aging !== null ||
      status.mode === 'debug',
    lockedOut: status.mode === 'lockout' || status.housing.io.lockoutMode,
  };
}

/**
 * The wait before deferred attempt `attempt` (1, 2, …) or download retry: random in
 * `[b/2, b)`, b = min(capMs, baseMs · 2^(attempt−1)). Never below half a minute, so a lift
 * does not flood its state topic; jittered, so that a fleet deferred together does not come
 * back together; `random` is the lift's own generator (uniform in [0, 1)).
 */
export function nextRetryDelay(attempt: number, random: () => number = Math.random): number {
  const n = Number.isFinite(attempt) && attempt >= 1 ? Math.min(Math.floor(attempt), 32) : 1;
  const bound = Math.min(FIRMWARE_RETRY.capMs, FIRMWARE_RETRY.baseMs * 2 ** (n - 1));
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(bound / 2 + (bound / 2) * unit);
}

/**
 * When a deferred lift tries again (the report's `retryAt`): at the window's start plus a
 * jitter when it waits for the window to open, else after `nextRetryDelay`.
 */
export function nextRetryAt(
  attempt: number,
  blocker: FirmwareInterlock,
  window: FirmwareWindow | undefined,
  now: Date,
  random: () => number = Math.random,
): Date {
  if (blocker === 'outsideWindow' && window && now.getTime() < Date.parse(window.start)) {
    // spread over the window's first half minute (the first attempt's range, shifted to 0)
    return new Date(
      Date.parse(window.start) + nextRetryDelay(1, random) - FIRMWARE_RETRY.baseMs / 2,
    );
  }
  return new Date(now.getTime() + nextRetryDelay(attempt, random));
}

// ---------------------------------------------------------------------------------------
// States (`firmware/state`)

/**
 * The states a lift reports for one offer. `failed`: the update did not happen and the lift
 * never left its working image. `rolledBack`: the new image was switched to, did not come up
 * (or not completely), and the bootloader booted the previous slot again. State labels in
 * the web client: `firmware.state.<state>`.
 */
export const FIRMWARE_STATES = [
  'queued',
  'downloading',
  'verifying',
  'deferred',
  'installing',
  'rebooting',
  'done',
  'failed',
  'rolledBack',
] as const;
export type FirmwareState = (typeof FIRMWARE_STATES)[number];
export const firmwareStateSchema = z.enum(FIRMWARE_STATES);
export const FINAL_FIRMWARE_STATES: readonly FirmwareState[] = ['done', 'failed', 'rolledBack'];
export function isFinalFirmwareState(state: FirmwareState): boolean {
  return FINAL_FIRMWARE_STATES.includes(state);
}

/**
 * The order of the reports of one offer: the first is `queued`, `done` (alreadyRunning) or
 * `failed` (refused); `failed` may follow any state before `rebooting` (a later offer
 * supersedes an update that has not started to install). A repeated state (progress, a new
 * deferral reason) is allowed.
 */
export const FIRMWARE_TRANSITIONS: Record<FirmwareState | 'start', readonly FirmwareState[]> = {
  start: ['queued', 'done', 'failed'],
  queued: ['downloading', 'verifying', 'failed'],
  downloading: ['downloading', 'verifying', 'failed'],
  verifying: ['deferred', 'installing', 'failed'],
  deferred: ['deferred', 'installing', 'failed'],
  installing: ['rebooting', 'failed', 'rolledBack'],
  rebooting: ['done', 'rolledBack'],
  done: [],
  failed: [],
  rolledBack: [],
};
/** Whether `to` may follow `from` (null: the first report of an offer). */
export function isFirmwareTransition(from: FirmwareState | null, to: FirmwareState): boolean {
  return FIRMWARE_TRANSITIONS[from ?? 'start'].includes(to);
}

/** The state names in words (logbook entries, mails). */
export const FIRMWARE_STATE_TEXTS: Record<FirmwareState, LocalizedText> = {
  queued: localized('已排队', 'Queued', 'В очереди'),
  downloading: localized('正在下载', 'Downloading', 'Загрузка'),
  verifying: localized('正在校验', 'Verifying', 'Проверка'),
  deferred: localized('等待安全时机', 'Waiting for a safe moment', 'Ожидание безопасного момента'),
  installing: localized('正在安装', 'Installing', 'Установка'),
  rebooting: localized('正在重启', 'Restarting', 'Перезапуск'),
  done: localized('已完成', 'Done', 'Готово'),
  failed: localized('失败', 'Failed', 'Ошибка'),
  rolledBack: localized(
    '已恢复原固件',
    'Rolled back to the previous firmware',
    'Возврат к прежней прошивке',
  ),
};

const interlockSet = new Set<string>(FIRMWARE_INTERLOCKS);
const rollbackSet = new Set<string>(FIRMWARE_ROLLBACK_REASONS);
const unverifiedSet = new Set<string>(FIRMWARE_UNVERIFIED_REFUSALS);

/**
 * `lifts/{deviceNo}/firmware/state`: one report about one offer (`offerSeq`, `packageId`,
 * `version` as the manifest says). `seq` and `ts` as every uplink message. Rules:
 * - `percent` (required) and `bytes` only with `downloading`; `retryAt` only with `deferred`;
 * - `reason`: an interlock with `deferred`; a failure with `failed` (not `bootFailed`); a
 *   rollback reason with `rolledBack`; none otherwise;
 * - `lastSeq` (the lift's last accepted offer number) only with `replayed`: the cloud
 *   continues its count above it (after a database restore, say);
 * - `offerSeq`, `packageId`, `version` may be null only when the offer could not be
 *   verified (FIRMWARE_UNVERIFIED_REFUSALS);
 * - `done` means the lift runs `version`: `runningVersion` equals it.
 */
export const firmwareStateMessageSchema = z
  .strictObject({
    seq: seqSchema,
    ts: timestampSchema,
    v: z.literal(FIRMWARE_FORMAT_VERSION),
    offerSeq: offerSeqSchema.nullable(),
    packageId: firmwareIdSchema.nullable(),
    version: firmwareVersionSchema.nullable(),
    state: firmwareStateSchema,
    percent: z.number().int().min(0).max(100).optional(),
    bytes: z.number().int().min(0).max(FIRMWARE_MAX_BYTES).optional(),
    reason: firmwareReasonSchema.optional(),
    retryAt: timestampSchema.optional(),
    lastSeq: z.number().int().min(0).max(FIRMWARE_SEQ_MAX).optional(),
    /** What the lift runs now: the same free-form field as its presence and bench handshake. */
    runningVersion: firmwareSchema,
  })
  .superRefine((m, ctx) => {
    const issue = (path: string, message = 'validation.invalid') =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    if ((m.state === 'downloading') !== (m.percent !== undefined))
      issue('percent', m.percent === undefined ? 'validation.required' : 'validation.invalid');
    if (m.bytes !== undefined && m.state !== 'downloading') issue('bytes');
    if (m.retryAt !== undefined && m.state !== 'deferred') issue('retryAt');
    const r = m.reason;
    if (m.state === 'deferred' || m.state === 'failed' || m.state === 'rolledBack') {
      if (r === undefined) issue('reason', 'validation.required');
      else if (
        m.state === 'deferred'
          ? !interlockSet.has(r)
          : m.state === 'failed'
            ? interlockSet.has(r) || r === 'bootFailed'
            : !rollbackSet.has(r)
      )
        issue('reason');
    } else if (r !== undefined) issue('reason');
    if (m.lastSeq !== undefined && r !== 'replayed') issue('lastSeq');
    const unverified = m.state === 'failed' && r !== undefined && unverifiedSet.has(r);
    if (!unverified)
      for (const key of ['offerSeq', 'packageId', 'version'] as const)
        if (m[key] === null) issue(key, 'validation.required');
    if (m.state === 'done' && m.runningVersion !== m.version) issue('runningVersion');
  });
export type FirmwareStateMessage = z.infer<typeof firmwareStateMessageSchema>;

/** Whole percent of a download, 0 … 100 (100 only when complete). */
export function downloadPercent(bytes: number, size: number): number {
  if (!(size > 0) || !(bytes > 0)) return 0;
  if (bytes >= size) return 100;
  return Math.min(99, Math.floor((bytes / size) * 100));
}

// ---------------------------------------------------------------------------------------
// Ranged download (HTTP Range, RFC 9110 section 14)

/**
 * How the server answers a GET of an image of `size` bytes: `full` (200, the whole image:
 * no Range, or one it ignores), `partial` (206, bytes `start`…`end` inclusive, with
 * `Content-Range`), `unsatisfiable` (416, with the star form of `Content-Range`).
 */
export type RangeRequest =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const RANGE = /^bytes=(\d{1,15})-(\d{0,15})$/i;

/**
 * Reads a `Range` header for one range, `bytes=N-` or `bytes=N-M` (the only forms a lift
 * sends). Anything else (several ranges, a suffix `bytes=-N`, garbage, `M < N`) is ignored
 * as RFC 9110 allows: the whole image. An end past the image is cut to its last byte; a
 * start at or past its end is unsatisfiable.
 */
export function parseRangeHeader(header: string | null | undefined, size: number): RangeRequest {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`invalid size: ${size}`);
  if (typeof header !== 'string') return { kind: 'full' };
  const m = RANGE.exec(header.trim());
  if (!m) return { kind: 'full' };
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  if (end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/** `bytes=start-` or `bytes=start-end` (inclusive); throws on a range that is not one. */
export function formatRangeHeader(start: number, end?: number): string {
  if (!Number.isSafeInteger(start) || start < 0)
    throw new RangeError(`invalid range start: ${start}`);
  if (end === undefined) return `bytes=${start}-`;
  if (!Number.isSafeInteger(end) || end < start) throw new RangeError(`invalid range end: ${end}`);
  return `bytes=${start}-${end}`;
}

/** The `Content-Range` of a 206 (`bytes start-end/size`) or, for null, the star form of a 416 (`bytes`, star, slash, size). */
export function formatContentRange(
  range: { start: number; end: number } | null,
  size: number,
): string {
  return range ? `bytes ${range.start}-${range.end}/${size}` : `bytes */${size}`;
}

/** Reads the `Content-Range` of a 206: `{start, end, size}`, or null for anything else. */
export function parseContentRange(
  header: string | null | undefined,
): { start: number; end: number; size: number } | null {
  if (typeof header !== 'string') return null;
  const m = /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15})$/i.exec(header.trim());
  if (!m) return null;
  const [start, end, size] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return start <= end && end < size ? { start, end, size } : null;
}

/**
 * What a lift does with the answer to its download request from byte `offset` of an image
 * of `size` bytes: `append` (206 from `offset`, the right total), `restart` (200: the server
 * sent the whole image; keep it from byte 0), `retry` (a transient error: resume after
 * `nextRetryDelay`, at most FIRMWARE_DOWNLOAD_ATTEMPTS times), or `fail` with the reason.
 */
export function downloadResponse(
  status: number,
  contentRange: string | null | undefined,
  offset: number,
  size: number,
): { action: 'append' | 'restart' | 'retry' } | { action: 'fail'; reason: FirmwareFailure } {
  if (status === 206) {
    const range = parseContentRange(contentRange);
    if (!range || range.size !== size) return { action: 'fail', reason: 'sizeMismatch' };
    return range.start === offset
      ? { action: 'append' }
      : { action: 'fail', reason: 'downloadFailed' };
  }
  if (status === 200) return { action: 'restart' };
  if (status === 401 || status === 403) return { action: 'fail', reason: 'tokenRefused' };
  if (status === 410) return { action: 'fail', reason: 'withdrawn' };
  if (status === 416) return { action: 'fail', reason: 'sizeMismatch' };
  if (status === 408 || status === 429 || status >= 500) return { action: 'retry' };
  return { action: 'fail', reason: 'downloadFailed' };
}
