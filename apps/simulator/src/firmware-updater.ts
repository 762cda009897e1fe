import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat, unlink } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import {
  FIRMWARE_DEVICE_NO_HEADER,
  FIRMWARE_DOWNLOAD_ATTEMPTS,
  FIRMWARE_FORMAT_VERSION,
  FIRMWARE_OFFER_TOPIC,
  FIRMWARE_PROGRESS_STEP_PERCENT,
  FIRMWARE_STATE_TOPIC,
  liftTopic,
  downloadPercent,
  downloadResponse,
  firmwareInterlockFacts,
  firmwareWindowClosed,
  formatRangeHeader,
  installBlocker,
  nextRetryAt,
  nextRetryDelay,
  parseContentRange,
  resolveDownloadUrl,
  type DeviceKind,
  type FirmwareFailure,
  type FirmwareManifest,
  type FirmwareStateMessage,
  type LiftStatus,
} from '@liftlink/protocol';
// node:crypto signing and verification: not exported from the package index (the web client bundles that)
import {
  firmwarePublicKey,
  firmwareTrustStore,
  receiveOffer,
  type FirmwareTrustStore,
} from '../../../packages/protocol/src/device/firmware-signature.ts';

/**
 * The lift's side of firmware updates over the air (docs/protocol.md section 11), the
 * reference implementation the cloud's tests drive: verify and check an offer, download the
 * image (ranged, resumable) into a staging file named by its SHA-256, verify size and hash,
 * wait for the interlocks, "install", restart and report `done` on the new version, or
 * `rolledBack` when the new image does not come up. One updater per simulated lift.
 */

/** `lifts/{deviceNo}/firmware/offer` and `.../firmware/state`. */
export const firmwareOfferTopic = (deviceNo: string) => liftTopic(deviceNo, FIRMWARE_OFFER_TOPIC);
export const firmwareStateTopic = (deviceNo: string) => liftTopic(deviceNo, FIRMWARE_STATE_TOPIC);

/** A raw Ed25519 public key in standard base64 (32 bytes), as the factory bench writes it. */
export const firmwareKeySchema = z.string().refine((key) => {
  try {
    firmwarePublicKey(key);
    return !key.includes('-----BEGIN');
  } catch {
    return false;
  }
}, 'not a raw Ed25519 public key in base64');

/**
 * Failure injection, per lift (fleet JSON `"ota"`) or in code (`updater.faults`):
 * `cutDownloadAt` (0..1): the first connection of every download is dropped after this
 * fraction of the image, so the lift resumes with a Range request; `corruptImage`: a byte of
 * every downloaded image is flipped (→ `hashMismatch`); `failInstall`: writing the inactive
 * slot fails (→ `failed` / `installFailed`); `failBoot`: the new image does not come up
 * (→ `rolledBack` / `bootFailed`). `waitScale`: every wait of the updater (deferred retries,
 * download retries, installing, restarting) is this fraction of the real one, for tests and
 * demos (the reported `retryAt` stays the protocol's).
 */
export const otaSpecSchema = z.strictObject({
  cutDownloadAt: z.number().gt(0).lt(1).optional(),
  corruptImage: z.boolean().optional(),
  failInstall: z.boolean().optional(),
  failBoot: z.boolean().optional(),
  waitScale: z.number().min(0).max(1).optional(),
});
export type OtaSpec = z.infer<typeof otaSpecSchema>;
export type OtaFaults = Omit<OtaSpec, 'waitScale'>;

/** What the updater needs of the lift (a `LiftMachine` is one). */
export interface FirmwareLift {
  readonly deviceNo: string;
  readonly kind: DeviceKind;
  /** The running firmware version: presence reports it; a done update changes it. */
  firmware: string;
  /** The lift's clock, ms. */
  readonly now: number;
  status(): LiftStatus;
  /** Set from `installing` until the new image runs or the old one is back: the lift refuses movement (`busy`). */
  firmwareInstalling: boolean;
  /** The controller has restarted (the machine logs power-on). */
  rebooted?(): void;
}

/** A `firmware/state` report without `seq` and `ts`, which the lift's connection adds. */
export type FirmwareStateReport = Omit<FirmwareStateMessage, 'seq' | 'ts'>;

export interface FirmwareUpdaterOptions {
  lift: FirmwareLift;
  /** The public keys the lift trusts (raw 32-byte base64 or PEM); none: every offer is refused (`unknownKey`). */
  trustedKeys?: readonly string[];
  /** The cloud's address a path `url` is resolved against (`https://cloud.example.com`; `http://` for tests). */
  downloadBase?: string;
  /** With https: trust only these PEM certificates (the lift's pinned CAs; read at every download). */
  ca?: () => Buffer | string;
  /** Sends a report; the returned promise settles when the broker has it (PUBACK): `rebooting` waits for it. */
  report: (report: FirmwareStateReport) => Promise<void> | void;
  /** Restarts the lift's connection (disconnect, reconnect); resolves when it is back. Default: a short pause. */
  reboot?: (signal: AbortSignal) => Promise<void>;
  faults?: OtaFaults;
  /** See `OtaSpec.waitScale` (default 1). */
  waitScale?: number;
  /** The lift's own random generator for the retry jitter (default Math.random). */
  random?: () => number;
  log?: (line: string) => void;
  /** Where images are staged (default: a fresh directory under the system's temp directory, removed by `stop`). */
  stagingDir?: string;
  /** The last accepted offer (flash), e.g. for a lift that restarts. */
  lastSeq?: number;
  lastPackageId?: string;
}

/** How long the simulated steps take before `waitScale`, ms. */
const INSTALL_MS = 3_000;
const REBOOT_MS = 5_000;

type Phase = 'preparing' | 'installing' | 'ended';

interface Job {
  manifest: FirmwareManifest;
  controller: AbortController;
  phase: Phase;
  last: FirmwareStateReport;
  lastPercent: number;
  promise: Promise<void>;
}

class Failure extends Error {
  constructor(readonly reason: FirmwareFailure) {
    super(reason);
  }
}

type Outcome = { kind: 'ok' } | { kind: 'transient'; earlyEnd: boolean };

export class FirmwareUpdater {
  /** Failure injection; may be changed while the lift runs. */
  faults: OtaFaults;
  private readonly options: FirmwareUpdaterOptions;
  private readonly lift: FirmwareLift;
  private readonly trust: FirmwareTrustStore;
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private seq: number;
  private seqPackageId: string | undefined;
  private job: Job | null = null;
  /** The last report of the last accepted offer, for a duplicate delivery. */
  private lastAccepted: FirmwareStateReport | null = null;
  private queue: Promise<void> = Promise.resolve();
  private stagingDir: Promise<string> | null = null;
  private stopped = false;

  constructor(options: FirmwareUpdaterOptions) {
    this.options = options;
    this.lift = options.lift;
    this.trust = firmwareTrustStore(options.trustedKeys ?? []);
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => {});
    this.faults = { ...options.faults };
    this.seq = options.lastSeq ?? 0;
    this.seqPackageId = options.lastPackageId;
  }

  /** The offer number the lift last accepted (0: none); kept for the lifetime of the lift. */
  get lastSeq(): number {
    return this.seq;
  }

  /** The state of the update under way or last ended, or null before the first accepted offer. */
  get state(): FirmwareStateReport | null {
    return this.job?.last ?? this.lastAccepted;
  }

  /**
   * An offer arrived (an MQTT payload, text or object). Resolves when it has been refused,
   * or accepted and its update started (`settled()` waits for the update). Offers are
   * handled one after the other; one that comes while the lift installs or restarts waits
   * until the update has ended.
   */
  receive(payload: unknown): Promise<void> {
    const next = this.queue.then(() => this.handle(payload));
    this.queue = next.catch((err: unknown) =>
      this.log(`${this.lift.deviceNo}: firmware offer: ${String(err)}`),
    );
    return next;
  }

  /** Resolves when the offers received so far have been handled and the update under way has ended. */
  async settled(): Promise<void> {
    await this.queue;
    await this.job?.promise;
  }

  /** The lift shuts down: the update under way stops where it is (no report), the staging area is removed. */
  async stop(): Promise<void> {
    this.stopped = true;
    const job = this.job;
    job?.controller.abort();
    await job?.promise;
    const dir = this.stagingDir && !this.options.stagingDir ? await this.stagingDir : null;
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  private now(): Date {
    return new Date(this.lift.now);
  }

  private scaled(ms: number): number {
    return Math.max(0, ms * (this.options.waitScale ?? 1));
  }

  private send(report: FirmwareStateReport): Promise<void> {
    return Promise.resolve(this.options.report(report)).catch((err: unknown) =>
      this.log(`${this.lift.deviceNo}: firmware report failed: ${String(err)}`),
    );
  }

  private offerFields(
    m: FirmwareManifest,
  ): Pick<FirmwareStateReport, 'v' | 'offerSeq' | 'packageId' | 'version'> {
    return {
      v: FIRMWARE_FORMAT_VERSION,
      offerSeq: m.seq,
      packageId: m.packageId,
      version: m.version,
    };
  }

  private async handle(payload: unknown): Promise<void> {
    if (this.stopped) return;
    // an offer waits while the lift installs or restarts
    if (this.job?.phase === 'installing') await this.job.promise;
    const running = this.lift.firmware;
    const received = receiveOffer(
      payload,
      this.trust,
      {
        deviceNo: this.lift.deviceNo,
        kind: this.lift.kind,
        runningVersion: running,
        lastSeq: this.seq,
        ...(this.seqPackageId !== undefined ? { lastPackageId: this.seqPackageId } : {}),
      },
      this.now(),
    );
    if (!received.ok) {
      this.log(`${this.lift.deviceNo}: firmware offer refused: ${received.reason}`);
      await this.send({
        v: FIRMWARE_FORMAT_VERSION,
        offerSeq: received.offerSeq,
        packageId: received.packageId,
        version: received.version,
        state: 'failed',
        reason: received.reason,
        ...(received.reason === 'replayed' ? { lastSeq: this.seq } : {}),
        runningVersion: running,
      });
      return;
    }
    const m = received.manifest;
    if (received.action === 'duplicate') {
      const last = this.state;
      if (last) await this.send({ ...last, runningVersion: this.lift.firmware });
      return;
    }
    // accepted: the offer number goes to "flash" before anything is reported
    this.seq = m.seq;
    this.seqPackageId = m.packageId;
    await this.supersede(m);
    if (received.action === 'alreadyRunning') {
      this.lastAccepted = { ...this.offerFields(m), state: 'done', runningVersion: running };
      await this.send(this.lastAccepted);
      return;
    }
    this.log(`${this.lift.deviceNo}: firmware ${m.version} offered (offer ${m.seq})`);
    const controller = new AbortController();
    const job: Job = {
      manifest: m,
      controller,
      phase: 'preparing',
      last: { ...this.offerFields(m), state: 'queued', runningVersion: running },
      lastPercent: -Infinity,
      promise: Promise.resolve(),
    };
    this.job = job;
    await this.send(job.last);
    job.promise = this.run(job).finally(() => {
      job.phase = 'ended';
      this.lastAccepted = job.last;
      if (this.job === job) this.job = null;
    });
  }

  /** A newer accepted offer replaces an update that has not started to install. */
  private async supersede(next: FirmwareManifest): Promise<void> {
    const job = this.job;
    if (!job || job.phase !== 'preparing') return;
    job.controller.abort();
    await job.promise;
    await this.report(job, { state: 'failed', reason: 'superseded' });
    // a part of the same image is kept (the next offer resumes it), another one is dropped
    if (job.manifest.sha256 !== next.sha256) await this.discard(job.manifest);
  }

  private report(
    job: Job,
    fields: Omit<
      FirmwareStateReport,
      'v' | 'offerSeq' | 'packageId' | 'version' | 'runningVersion'
    >,
  ): Promise<void> {
    job.last = { ...this.offerFields(job.manifest), ...fields, runningVersion: this.lift.firmware };
    return this.send(job.last);
  }

  private async run(job: Job): Promise<void> {
    const m = job.manifest;
    const signal = job.controller.signal;
    try {
      const file = await this.download(job);
      await this.report(job, { state: 'verifying' });
      await this.verify(job, file);
      await this.waitForInterlocks(job);
      await this.install(job, file);
    } catch (err) {
      this.lift.firmwareInstalling = false;
      if (signal.aborted) return;
      if (!(err instanceof Failure)) {
        this.log(`${this.lift.deviceNo}: firmware update of ${m.version} broke: ${String(err)}`);
        await this.report(job, { state: 'failed', reason: 'downloadFailed' });
        return;
      }
      this.log(`${this.lift.deviceNo}: firmware update of ${m.version} failed: ${err.reason}`);
      if (err.reason === 'sizeMismatch') await this.discard(m);
      await this.report(job, { state: 'failed', reason: err.reason });
    }
  }

  // ------------------------------------------------------------------ download

  private async stagingFile(m: FirmwareManifest): Promise<string> {
    this.stagingDir ??= this.options.stagingDir
      ? Promise.resolve(this.options.stagingDir)
      : mkdtemp(path.join(tmpdir(), 'liftlink-sim-fw-'));
    return path.join(await this.stagingDir, `${this.lift.deviceNo}-${m.sha256}.img`);
  }

  private async discard(m: FirmwareManifest): Promise<void> {
    await unlink(await this.stagingFile(m)).catch(() => {});
  }

  private async progress(job: Job, have: number, force = false): Promise<void> {
    const percent = downloadPercent(have, job.manifest.size);
    if (percent === job.lastPercent) return;
    if (!force && percent < 100 && percent < job.lastPercent + FIRMWARE_PROGRESS_STEP_PERCENT)
      return;
    job.lastPercent = percent;
    await this.report(job, { state: 'downloading', percent, bytes: have });
  }

  /** Downloads the rest of the image into its staging file; returns the file. */
  private async download(job: Job): Promise<string> {
    const m = job.manifest;
    const file = await this.stagingFile(m);
    let have = await stat(file).then(
      (s) => s.size,
      () => 0,
    );
    if (have > m.size) {
      await unlink(file);
      have = 0;
    }
    await this.progress(job, have, true);
    let url: URL;
    try {
      if (!this.options.downloadBase && m.url.startsWith('/'))
        throw new Error('no download address (--firmware-base) for a path url');
      url = new URL(resolveDownloadUrl(m.url, this.options.downloadBase ?? m.url));
    } catch (err) {
      this.log(`${this.lift.deviceNo}: cannot download ${m.url}: ${(err as Error).message}`);
      throw new Failure('downloadFailed');
    }
    let failures = 0;
    let onlyEarlyEnds = true;
    let cut = this.faults.cutDownloadAt;
    while (have < m.size) {
      const cutAt = cut === undefined ? null : Math.floor(m.size * cut);
      cut = undefined;
      const result = await this.fetchFrom(job, url, file, have, cutAt);
      have = result.have;
      if (result.outcome.kind === 'ok') continue;
      failures += 1;
      if (!result.outcome.earlyEnd) onlyEarlyEnds = false;
      if (failures >= FIRMWARE_DOWNLOAD_ATTEMPTS)
        throw new Failure(onlyEarlyEnds ? 'truncated' : 'downloadFailed');
      await sleep(this.scaled(nextRetryDelay(failures, this.random)), undefined, {
        signal: job.controller.signal,
      });
    }
    await this.progress(job, have);
    return file;
  }

  /** One GET from byte `have`: appends to `file`; `cutAt`: drop the connection there (fault injection). */
  private async fetchFrom(
    job: Job,
    url: URL,
    file: string,
    from: number,
    cutAt: number | null,
  ): Promise<{ have: number; outcome: Outcome }> {
    const m = job.manifest;
    let have = from;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${m.token}`,
      [FIRMWARE_DEVICE_NO_HEADER]: this.lift.deviceNo,
      'Accept-Encoding': 'identity',
      'User-Agent': `LiftLink-Simulator/${this.lift.firmware}`,
      ...(have > 0 ? { Range: formatRangeHeader(have) } : {}),
    };
    let res: IncomingMessage;
    try {
      res = await get(url, headers, job.controller.signal, this.options.ca);
    } catch (err) {
      if (job.controller.signal.aborted) throw err;
      this.log(`${this.lift.deviceNo}: firmware download: ${(err as Error).message}`);
      return { have, outcome: { kind: 'transient', earlyEnd: false } };
    }
    const decision = downloadResponse(
      res.statusCode ?? 0,
      res.headers['content-range'],
      have,
      m.size,
    );
    if (decision.action !== 'append' && decision.action !== 'restart') {
      res.resume();
      this.log(`${this.lift.deviceNo}: firmware download answered ${res.statusCode}`);
      if (decision.action === 'fail') throw new Failure(decision.reason);
      return { have, outcome: { kind: 'transient', earlyEnd: false } };
    }
    if (decision.action === 'restart') have = 0;
    // downloadResponse has checked the Content-Range of an append
    const expected =
      decision.action === 'append'
        ? parseContentRange(res.headers['content-range'])!.end + 1
        : m.size;
    const handle = await open(file, decision.action === 'restart' ? 'w' : 'a');
    try {
      for await (const data of res) {
        let chunk = data as Buffer;
        if (have + chunk.length > m.size) {
          res.destroy();
          throw new Failure('sizeMismatch');
        }
        if (cutAt !== null && cutAt > from && have + chunk.length >= cutAt) {
          chunk = chunk.subarray(0, cutAt - have);
          await handle.write(chunk);
          have += chunk.length;
          res.destroy();
          this.log(
            `${this.lift.deviceNo}: firmware download cut at ${have} bytes (fault injection)`,
          );
          return { have, outcome: { kind: 'transient', earlyEnd: true } };
        }
        await handle.write(chunk);
        have += chunk.length;
        await this.progress(job, have);
      }
    } catch (err) {
      if (err instanceof Failure || job.controller.signal.aborted) throw err;
      this.log(`${this.lift.deviceNo}: firmware download broke off: ${(err as Error).message}`);
      return { have, outcome: { kind: 'transient', earlyEnd: true } };
    } finally {
      await handle.close();
    }
    if (have < expected) return { have, outcome: { kind: 'transient', earlyEnd: true } };
    return { have, outcome: { kind: 'ok' } };
  }

  // ------------------------------------------------------------------ verify, wait, install

  private async verify(job: Job, file: string): Promise<void> {
    const m = job.manifest;
    if (this.faults.corruptImage) await flipByte(file, Math.floor(m.size / 2));
    const { size, sha256 } = await hashFile(file, job.controller.signal);
    if (size !== m.size || sha256 !== m.sha256) {
      // a wrong image is discarded: a later offer downloads it from byte 0
      await this.discard(m);
      throw new Failure(size !== m.size ? 'sizeMismatch' : 'hashMismatch');
    }
  }

  private async waitForInterlocks(job: Job): Promise<void> {
    const m = job.manifest;
    for (let attempt = 1; ; attempt += 1) {
      const now = this.now();
      if (firmwareWindowClosed(m.window, now)) throw new Failure('windowClosed');
      const blocker = installBlocker(firmwareInterlockFacts(this.lift.status()), m.window, now);
      if (blocker === null) return;
      const at = nextRetryAt(attempt, blocker, m.window, now, this.random);
      await this.report(job, { state: 'deferred', reason: blocker, retryAt: at.toISOString() });
      await sleep(this.scaled(at.getTime() - now.getTime()), undefined, {
        signal: job.controller.signal,
      });
    }
  }

  private async install(job: Job, file: string): Promise<void> {
    const m = job.manifest;
    // from here on the lift refuses movement, and a new offer waits
    job.phase = 'installing';
    this.lift.firmwareInstalling = true;
    await this.report(job, { state: 'installing' });
    await sleep(this.scaled(INSTALL_MS), undefined, { signal: job.controller.signal });
    // write the inactive slot and read it back
    const readBack = await hashFile(file);
    if (this.faults.failInstall || readBack.sha256 !== m.sha256) throw new Failure('installFailed');
    await this.discard(m);
    // the offer is in the shared flash area; the rebooting report must have reached the broker
    await this.report(job, { state: 'rebooting' });
    const previous = this.lift.firmware;
    const boots = !this.faults.failBoot;
    this.log(
      `${this.lift.deviceNo}: restarting into firmware ${m.version}${boots ? '' : ' (it will not come up)'}`,
    );
    if (boots) this.lift.firmware = m.version;
    if (this.options.reboot) await this.options.reboot(job.controller.signal);
    else await sleep(this.scaled(REBOOT_MS), undefined, { signal: job.controller.signal });
    job.controller.signal.throwIfAborted();
    this.lift.rebooted?.();
    this.lift.firmwareInstalling = false;
    if (boots) {
      this.log(`${this.lift.deviceNo}: firmware ${m.version} runs`);
      await this.report(job, { state: 'done' });
    } else {
      this.log(
        `${this.lift.deviceNo}: firmware ${m.version} did not start; ${previous} runs again`,
      );
      await this.report(job, { state: 'rolledBack', reason: 'bootFailed' });
    }
  }
}

function get(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  ca: (() => Buffer | string) | undefined,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const options = { headers, signal, timeout: 30_000 };
    const req =
      url.protocol === 'https:'
        ? https.get(url, { ...options, ...(ca ? { ca: ca() } : {}) }, resolve)
        : http.get(url, options, resolve);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
  });
}

/** Size and SHA-256 of a file, read in chunks (an image may be 64 MiB). */
async function hashFile(
  file: string,
  signal?: AbortSignal,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, signal ? { signal } : {})) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

async function flipByte(file: string, at: number): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] = byte[0]! ^ 0xff;
    await handle.write(byte, 0, 1, at);
  } finally {
    await handle.close();
  }
}
