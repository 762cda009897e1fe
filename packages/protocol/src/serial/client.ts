import { FrameDecoder, INTER_BYTE_TIMEOUT_MS, type FrameErrorKind } from './frame.ts';
import {
  decodeReply,
  encodeRequest,
  SERIAL_COMMANDS,
  type SerialCommand,
  type SerialErrorBody,
  type SerialErrorCode,
  type SerialRequest,
  type SerialResponse,
} from './messages.ts';

/** Bytes in and out of an open serial port (Web Serial, the bridge's WebSocket, serialport in Node). */
export interface ByteTransport {
  write(bytes: Uint8Array): Promise<void>;
  /** Registers the receiver of incoming bytes; returns a function that removes it. */
  onData(listener: (bytes: Uint8Array) => void): () => void;
}

/**
 * Why a request failed: `timeout` (no valid answer after the retries: wrong port, wrong
 * baud rate, cable pulled), `closed` (the port went away), `invalid` (the request did
 * not pass its own schema), or the controller's refusal (`SerialErrorCode`).
 */
export type SerialFailure = 'timeout' | 'closed' | 'invalid' | SerialErrorCode;

export class SerialError extends Error {
  constructor(
    readonly code: SerialFailure,
    readonly issues: SerialErrorBody['issues'] = [],
  ) {
    super(`serial: ${code}`);
    this.name = 'SerialError';
  }
}

export interface SerialLinkOptions {
  /** How long to wait for an answer to one attempt, ms (default 1000). */
  timeoutMs?: number;
  /** Further attempts after a time-out (default 2); the controller answers a repeat from its cache. */
  retries?: number;
  /** Counts of what the decoder threw away, for a diagnostics line. */
  onFrameError?: (error: FrameErrorKind, bytes: number) => void;
}

interface Pending {
  seq: number;
  cmd: number;
  resolve: (body: unknown) => void;
  reject: (error: SerialError) => void;
}

/**
 * The host's side of the serial link: one request at a time, answered by SEQ. A request
 * that gets no valid answer is sent again with the same SEQ (so the controller does not
 * execute it twice), then fails with `timeout`. Never leaves a promise hanging: `close()`
 * fails the request in flight with `closed`.
 */
export class SerialLink {
  private readonly decoder = new FrameDecoder(INTER_BYTE_TIMEOUT_MS);
  private readonly detach: () => void;
  private seq = Math.floor(Math.random() * 256);
  private pending: Pending | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly timeoutMs: number;
  private readonly retries: number;

  constructor(
    private readonly transport: ByteTransport,
    private readonly options: SerialLinkOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1_000;
    this.retries = options.retries ?? 2;
    this.detach = transport.onData((bytes) => this.receive(bytes));
  }

  private receive(bytes: Uint8Array): void {
    for (const event of this.decoder.push(bytes)) {
      if (event.type === 'error') {
        this.options.onFrameError?.(event.error, event.bytes);
        continue;
      }
      const pending = this.pending;
      const reply = decodeReply(event.frame);
      // A late answer to an earlier request (other SEQ) is ignored.
      if (!pending || reply.seq !== pending.seq) continue;
      if (!reply.ok) continue;
      if (reply.kind === 'error') {
        if (reply.body.cmd !== pending.cmd) continue;
        this.pending = null;
        pending.reject(new SerialError(reply.body.code, reply.body.issues ?? []));
      } else if (SERIAL_COMMANDS[reply.command].code === pending.cmd) {
        this.pending = null;
        pending.resolve(reply.body);
      }
    }
  }

  /** Sends one request and resolves with the controller's answer; throws SerialError. */
  request<C extends SerialCommand>(command: C, body: SerialRequest<C>): Promise<SerialResponse<C>> {
    const run = this.queue.then(() => this.exchange(command, body));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async exchange<C extends SerialCommand>(command: C, body: SerialRequest<C>): Promise<SerialResponse<C>> {
    if (this.closed) throw new SerialError('closed');
    this.seq = (this.seq + 1) & 0xff;
    const seq = this.seq;
    const frame = encodeRequest(command, seq, body);
    if (!frame) throw new SerialError('invalid');
    const cmd = SERIAL_COMMANDS[command].code;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (this.closed) throw new SerialError('closed');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answer = new Promise<unknown>((resolve, reject) => {
        this.pending = { seq, cmd, resolve, reject };
        timer = setTimeout(() => resolve(TIMED_OUT), this.timeoutMs);
      });
      try {
        await this.transport.write(frame);
      } catch {
        clearTimeout(timer);
        this.pending = null;
        throw new SerialError('closed');
      }
      const result = await answer.finally(() => clearTimeout(timer));
      if (result !== TIMED_OUT) return result as SerialResponse<C>;
      this.pending = null;
      this.decoder.reset();
    }
    throw new SerialError('timeout');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.detach();
    const pending = this.pending;
    this.pending = null;
    pending?.reject(new SerialError('closed'));
  }

  handshake = () => this.request('handshake', {});
  writeDeviceNo = (deviceNo: string) => this.request('writeDeviceNo', { deviceNo });
  writeCredentials = (body: SerialRequest<'writeCredentials'>) => this.request('writeCredentials', body);
  readConfig = () => this.request('readConfig', {});
  writeConfig = (body: SerialRequest<'writeConfig'>) => this.request('writeConfig', body);
  saveConfig = () => this.request('saveConfig', {});
  readChannel = (channel: number) => this.request('readChannel', { channel });
  writeChannel = (body: SerialRequest<'writeChannel'>) => this.request('writeChannel', body);
  readConversions = () => this.request('readConversions', {});
  writeConversions = (body: SerialRequest<'writeConversions'>) => this.request('writeConversions', body);
  readPort = () => this.request('readPort', {});
  writePort = (body: SerialRequest<'writePort'>) => this.request('writePort', body);
  writeFirmwareKeys = (body: SerialRequest<'writeFirmwareKeys'>) => this.request('writeFirmwareKeys', body);
}

const TIMED_OUT = Symbol('timeout');
