import {
  FrameDecoder,
  SERIAL_COMMANDS,
  SERIAL_PROTOCOL_VERSION,
  conversionsOutsideChannels,
  crc16Modbus,
  decodeRequest,
  defaultConfig,
  encodeError,
  encodeResponse,
  validateConfigChange,
  type Frame,
  type Handshake,
  type SerialCommand,
  type SerialErrorBody,
  type SerialRequest,
  type SerialResponse,
} from '@liftlink/protocol';
import { firmwareKeyId } from '@liftlink/protocol/firmware-signature';
import { LiftMachine } from '../lift-machine.ts';
import type { ControllerState } from './controller-state.ts';

export interface ControllerHooks {
  /** Stores the state in flash (atomically); a rejection means nothing was stored. */
  save(state: ControllerState): Promise<void>;
  /** After the device number, the credentials or the trusted firmware keys changed (and were stored). */
  onLinkSettingsChanged?(): void;
  /** After the running configuration changed over the link (the cloud should hear of it). */
  onConfigWritten?(): void;
  /** The state of the controller's MQTT connection. */
  mqttState?(): Handshake['mqtt'];
  log?(line: string): void;
}

type Answer<C extends SerialCommand> = { ok: true; body: SerialResponse<C> } | { ok: false; error: Omit<SerialErrorBody, 'cmd'> };
const refuse = (code: SerialErrorBody['code'], issues?: SerialErrorBody['issues']) => ({ ok: false as const, error: { code, ...(issues?.length ? { issues } : {}) } });

/** A device number the machine carries before the manufacturer assigns one (never sent anywhere). */
const UNASSIGNED = 'UNASSIGNED';

/**
 * The controller's side of the serial link, without any I/O: it turns request frames into
 * answer frames, keeps its settings in `state` (stored through `hooks.save`) and its
 * running configuration in the lift machine. A write changes anything only after the
 * whole frame arrived with a good checksum, passed its schema and was stored; if storing
 * fails, the old settings stay in place and the host gets `storage`.
 */
export class ControllerCore {
  machine: LiftMachine;
  private readonly decoder = new FrameDecoder();
  private queue: Promise<void> = Promise.resolve();
  /** The last request and its answer, so a retry with the same SEQ is answered, not executed again. */
  private last: { key: string; reply: Uint8Array } | null = null;
  /** The running configuration was written over the link and not yet saved to flash. */
  private unsavedSerialWrite = false;
  readonly stats = { frames: 0, errors: {} as Record<string, number> };

  constructor(
    public state: ControllerState,
    private readonly hooks: ControllerHooks,
    now = Date.now(),
  ) {
    this.machine = this.newMachine(now);
  }

  private newMachine(now: number, from?: LiftMachine): LiftMachine {
    const { kind, floors, firmware } = this.state.identity;
    const saved = this.state.config;
    return new LiftMachine({
      deviceNo: this.state.deviceNo ?? UNASSIGNED,
      kind,
      floors,
      firmware: from?.firmware ?? firmware,
      now,
      config: from?.config ?? saved?.values ?? defaultConfig(kind, floors),
      configVersion: from?.configVersion ?? saved?.version ?? 0,
    });
  }

  get configSaved(): boolean {
    return !this.unsavedSerialWrite && (this.state.config?.version ?? 0) === this.machine.configVersion;
  }

  /** Feeds received bytes; `send` gets each answer frame in order. */
  receive(chunk: Uint8Array, send: (bytes: Uint8Array) => void, now = Date.now()): Promise<void> {
    const events = this.decoder.push(chunk, now);
    for (const event of events) {
      if (event.type === 'error') {
        this.stats.errors[event.error] = (this.stats.errors[event.error] ?? 0) + event.bytes;
        this.hooks.log?.(`serial: dropped ${event.bytes} byte(s): ${event.error}`);
        continue;
      }
      this.queue = this.queue.then(async () => {
        const reply = await this.handleFrame(event.frame);
        if (reply) send(reply);
      });
    }
    return this.queue;
  }

  /** Abandons a frame whose bytes stopped arriving (call now and then). */
  expire(now = Date.now()): void {
    for (const event of this.decoder.expire(now)) {
      if (event.type === 'error') this.stats.errors[event.error] = (this.stats.errors[event.error] ?? 0) + event.bytes;
    }
  }

  async handleFrame(frame: Frame): Promise<Uint8Array | null> {
    this.stats.frames++;
    const key = `${frame.seq}:${frame.cmd}:${frame.payload.length}:${crc16Modbus(frame.payload)}`;
    if (this.last?.key === key) return this.last.reply;
    const req = decodeRequest(frame);
    let reply: Uint8Array | null;
    if (!req.ok) {
      reply = encodeError(req.seq, { code: req.error === 'unknownCommand' ? 'unknownCommand' : 'badRequest', cmd: req.cmd, ...(req.issues?.length ? { issues: req.issues } : {}) });
    } else {
      const answer = await this.execute(req.command, req.body);
      reply = answer.ok ? encodeResponse(req.command, req.seq, answer.body) : encodeError(req.seq, { ...answer.error, cmd: frame.cmd });
    }
    if (reply) this.last = { key, reply };
    return reply;
  }

  private async store(next: ControllerState): Promise<boolean> {
    try {
      await this.hooks.save(next);
      this.state = next;
      return true;
    } catch (err) {
      this.hooks.log?.(`serial: storing settings failed: ${(err as Error).message}`);
      return false;
    }
  }

  /** Saves the running configuration when it changed through the cloud (a serial write waits for saveConfig). */
  async persistCloudConfig(): Promise<void> {
    if (this.unsavedSerialWrite || (this.state.config?.version ?? 0) === this.machine.configVersion) return;
    await this.store({ ...this.state, config: { version: this.machine.configVersion, values: { ...this.machine.config } } });
  }

  handshake(): Handshake {
    const { identity } = this.state;
    return {
      protocol: SERIAL_PROTOCOL_VERSION,
      deviceNo: this.state.deviceNo,
      kind: identity.kind,
      floors: identity.floors,
      firmware: identity.firmware,
      controllerSerial: identity.controllerSerial,
      configVersion: this.machine.configVersion,
      configSaved: this.configSaved,
      credentials: this.state.credentials !== null,
      mqtt: this.state.credentials ? (this.hooks.mqttState?.() ?? 'connecting') : 'none',
      firmwareKeyIds: this.state.firmwareKeys.map((k) => k.keyId),
    };
  }

  private async execute<C extends SerialCommand>(command: C, body: SerialRequest<C>): Promise<Answer<C>> {
    const run = this.handlers[command] as (body: SerialRequest<C>) => Promise<Answer<C>> | Answer<C>;
    return run(body);
  }

  private readonly handlers: { [C in SerialCommand]: (body: SerialRequest<C>) => Promise<Answer<C>> | Answer<C> } = {
    handshake: () => ({ ok: true, body: this.handshake() }),

    writeDeviceNo: async ({ deviceNo }) => {
      if (deviceNo === this.state.deviceNo) return { ok: true, body: { deviceNo } };
      // Credentials belong to a device number: a new number drops them.
      if (!(await this.store({ ...this.state, deviceNo, credentials: null }))) return refuse('storage');
      this.machine = this.newMachine(this.machine.now, this.machine);
      this.hooks.onLinkSettingsChanged?.();
      return { ok: true, body: { deviceNo } };
    },

    writeCredentials: async ({ deviceNo, mqttUrl, secret }) => {
      if (!this.state.deviceNo) return refuse('noDeviceNo');
      if (deviceNo !== this.state.deviceNo) return refuse('mismatch');
      if (!(await this.store({ ...this.state, credentials: { mqttUrl, secret } }))) return refuse('storage');
      this.hooks.onLinkSettingsChanged?.();
      return { ok: true, body: { deviceNo, mqttUrl } };
    },

    writeFirmwareKeys: async ({ keys }) => {
      // A key garbled on the way is never trusted: each id must be its key's.
      const garbled = keys.some((k) => {
        try {
          return firmwareKeyId(k.publicKey) !== k.keyId;
        } catch {
          return true;
        }
      });
      if (garbled) return refuse('mismatch');
      if (!(await this.store({ ...this.state, firmwareKeys: keys }))) return refuse('storage');
      this.hooks.onLinkSettingsChanged?.();
      return { ok: true, body: { keyIds: keys.map((k) => k.keyId) } };
    },

    readConfig: () => ({ ok: true, body: { version: this.machine.configVersion, config: { ...this.machine.config }, saved: this.configSaved } }),

    writeConfig: ({ baseVersion, config }) => {
      const m = this.machine;
      if (m.moving) return refuse('busy');
      if (baseVersion !== m.configVersion) return refuse('versionConflict');
      const issues = validateConfigChange(m.configVersion > 0 ? m.config : null, config, this.state.identity.floors);
      if (issues.length > 0) return refuse('configInvalid', issues.slice(0, 50));
      m.config = { ...config };
      m.configVersion += 1;
      this.unsavedSerialWrite = true;
      this.hooks.onConfigWritten?.();
      return { ok: true, body: { version: m.configVersion } };
    },

    saveConfig: async () => {
      const m = this.machine;
      if (!(await this.store({ ...this.state, config: { version: m.configVersion, values: { ...m.config } } }))) return refuse('storage');
      this.unsavedSerialWrite = false;
      return { ok: true, body: { version: m.configVersion } };
    },

    readChannel: ({ channel }) => ({ ok: true, body: { channel, settings: { ...this.state.channels[channel - 1]! } } }),

    writeChannel: async ({ channel, settings }) => {
      const channels = this.state.channels.map((c, i) => (i === channel - 1 ? { ...settings } : c));
      return (await this.store({ ...this.state, channels })) ? { ok: true, body: { channel } } : refuse('storage');
    },

    readConversions: () => ({ ok: true, body: { entries: this.state.conversions.map((e) => ({ ...e })) } }),

    writeConversions: async ({ entries }) => {
      const issues = conversionsOutsideChannels(entries, this.state.channels);
      if (issues.length > 0) return refuse('badRequest', issues.slice(0, 50));
      return (await this.store({ ...this.state, conversions: entries })) ? { ok: true, body: { count: entries.length } } : refuse('storage');
    },

    readPort: () => ({ ok: true, body: { ...this.state.fieldPort } }),

    writePort: async (settings) => ((await this.store({ ...this.state, fieldPort: { ...settings } })) ? { ok: true, body: { ...settings } } : refuse('storage')),
  };
}

/** The command names for a log line. */
export const commandName = (code: number): string => Object.entries(SERIAL_COMMANDS).find(([, c]) => c.code === code)?.[0] ?? `0x${code.toString(16)}`;
