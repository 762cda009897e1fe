import { readFileSync } from 'node:fs';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import {
  DOWNLINK_TOPICS,
  FIRMWARE_OFFER_TOPIC,
  FIRMWARE_STATE_TOPIC,
  FIRMWARE_TOPICS,
  firmwareStateMessageSchema,
  RECONNECT_RULE,
  REFUSED_CONNACK_CODES,
  ReconnectBackoff,
  TOPIC_RULES,
  decodeLiftMessage,
  encodeLiftMessage,
  liftTopic,
  brokerConnection,
  noDelay,
  type DeviceKind,
  type LiftMessages,
  type ReconnectRule,
  type UplinkTopic,
} from '@liftlink/protocol';
import { FirmwareUpdater, firmwareOfferTopic, firmwareStateTopic, type FirmwareStateReport, type OtaSpec } from './firmware-updater.ts';
import type { LiftMachine, LiftOutput } from './lift-machine.ts';


/** How long `stop` waits for the broker's last acknowledgements before it disconnects anyway. */
export const STOP_GRACE_MS = 3_000;
/** A lift of the fleet as the server provisions it. */
export interface SimLiftSpec {
  deviceNo: string;
  /** MQTT password; omitted for an open broker. */
  secret?: string;
  kind: DeviceKind;
  floors: number;
  /** The firmware version the lift starts with (the fleet gives it to the lift machine, which reports it). */
  firmware?: string;
}

/** Firmware updates over the air (docs/protocol.md section 11; firmware-updater.ts). */
export interface MqttLiftOta {
  /** The raw Ed25519 public keys (base64) the lift trusts, as the factory bench wrote them; none: it refuses every offer. */
  trustedKeys?: readonly string[];
  /** The cloud's address a manifest's path `url` is resolved against (`https://cloud.example.com`, `http://` too). */
  downloadBase?: string;
  /** Failure injection and the wait scale. */
  spec?: OtaSpec;
}

export interface MqttLiftOptions {
  /**
   * The broker URL, or the nodes of a clustered broker as a comma-separated list of URLs
   * (brokerConnection; throws on a bad address): each try goes to the next node in the list.
   */
  mqttUrl: string;
  /** With mqtts: trust only the PEM certificates in this file (CA pinning), re-read at every reconnect. */
  caFile?: string;
  /** With mqtts: the name the broker's certificate must be for, when it differs from the URL's host. */
  servername?: string;
  spec: SimLiftSpec;
  machine: LiftMachine;
  /** Status snapshot period while idle and while something moves, ms. */
  statusIdleMs: number;
  statusMovingMs: number;
  /** Wall-clock ms when this process started: the base of the sequence numbers. */
  bootMs: number;
  log: (line: string) => void;
  /**
   * For tests: the reconnect rule (docs/protocol.md, "Reconnecting") scaled so its first-try
   * window is this many ms (100: tries within 100 ms, the cap at 600 ms). Default: the rule as it is.
   */
  reconnectMs?: number;
  /** The whole reconnect rule, instead of `reconnectMs`. */
  reconnectRule?: ReconnectRule;
  /** The random source of the reconnect waits, [0, 1) (default Math.random). */
  random?: () => number;
  /** Firmware updates: trusted keys, download address, failure injection. */
  ota?: MqttLiftOta;
}

/** `RECONNECT_RULE` scaled so that its first-try window is `firstTryWindowMs`: the same shape, faster or slower. */
export function scaledReconnectRule(firstTryWindowMs: number): ReconnectRule {
  const f = firstTryWindowMs / RECONNECT_RULE.firstTryWindowMs;
  return { baseMs: RECONNECT_RULE.baseMs * f, capMs: RECONNECT_RULE.capMs * f, firstTryWindowMs, stableMs: RECONNECT_RULE.stableMs * f, connectTimeoutMs: RECONNECT_RULE.connectTimeoutMs };
}

/**
 * Sequence numbers: strictly increasing per device over its whole life. They start at
 * boot time in ms times 1000, so a restarted lift continues above every number it used
 * before as long as it sent fewer than 1000 messages per millisecond of uptime.
 */
export class SeqCounter {
  private value: number;
  constructor(bootMs: number) {
    this.value = bootMs * 1000;
  }
  next(): number {
    this.value += 1;
    return this.value;
  }
}

/**
 * The TLS options of a lift that pins its CA: only the certificates in the file are trusted
 * (the system's CAs are not); any of them may be the anchor (a CA, an intermediate or the
 * broker's own certificate), and the broker's name is still checked.
 */
export function pinnedCa(options: Pick<MqttLiftOptions, 'caFile' | 'servername'>): Pick<IClientOptions, 'ca' | 'servername'> & { allowPartialTrustChain?: boolean } {
  return {
    ...(options.caFile ? { ca: readFileSync(options.caFile), allowPartialTrustChain: true } : {}),
    ...(options.servername ? { servername: options.servername } : {}),
  };
}

/** One simulated lift on MQTT: its machine's outputs become messages, downlink messages become machine inputs. */
export class MqttLift {
  readonly deviceNo: string;
  readonly machine: LiftMachine;
  /** The lift's side of firmware updates: offers on `firmware/offer`, reports on `firmware/state`. */
  readonly firmware: FirmwareUpdater;
  private readonly client: MqttClient;
  private readonly seq: SeqCounter;
  private readonly options: MqttLiftOptions;
  private session: number;
  private lastStatusAt: number;
  private lastStatusKey = '';
  private everConnected = false;
  private stopped = false;
  private lastError = '';
  private readonly firstConnect: Promise<void>;
  private readonly backoff: ReconnectBackoff;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** The broker refused this try for the lift's identity (a code of REFUSED_CONNACK_CODES). */
  private refused = false;

  constructor(options: MqttLiftOptions) {
    this.options = options;
    this.deviceNo = options.spec.deviceNo;
    this.machine = options.machine;
    this.seq = new SeqCounter(options.bootMs);
    // spread the periodic snapshots of a fleet over the period
    this.lastStatusAt = options.machine.now - Math.random() * options.statusIdleMs;
    this.session = this.seq.next();
    this.backoff = new ReconnectBackoff(
      options.random ?? Math.random,
      options.reconnectRule ?? (options.reconnectMs ? scaledReconnectRule(options.reconnectMs) : RECONNECT_RULE),
    );
    // One broker, or a cluster's nodes: MQTT.js builds every new connection (the first, and each
    // of our reconnect() calls) to the next of `servers`.
    const broker = brokerConnection(options.mqttUrl);
    const clientOptions: IClientOptions = {
      clientId: this.deviceNo,
      username: this.deviceNo,
      ...(options.spec.secret ? { password: options.spec.secret } : {}),
      clean: false,
      keepalive: 30,
      // no fixed-period retries: the lift schedules each try itself (scheduleReconnect)
      reconnectPeriod: 0,
      connectTimeout: this.backoff.rule.connectTimeoutMs,
      will: this.will(),
      ...pinnedCa(options),
      ...(broker.servers ? { servers: broker.servers } : {}),
    };
    const ota = options.ota ?? {};
    const { waitScale, ...faults } = ota.spec ?? {};
    this.firmware = new FirmwareUpdater({
      lift: options.machine,
      trustedKeys: ota.trustedKeys ?? [],
      ...(ota.downloadBase ? { downloadBase: ota.downloadBase } : {}),
      // downloads trust what the broker connection trusts (docs/protocol.md 11.5)
      ...(options.caFile ? { ca: () => readFileSync(options.caFile!) } : {}),
      faults,
      ...(waitScale !== undefined ? { waitScale } : {}),
      ...(options.random ? { random: options.random } : {}),
      report: (report) => this.publishFirmwareState(report),
      reboot: (signal) => this.reboot(signal),
      log: options.log,
    });
    this.client = mqtt.connect(broker.url, clientOptions);
    this.firstConnect = new Promise((resolve) => this.client.once('connect', () => resolve()));
    this.client.on('reconnect', () => {
      // each connection gets its own session, so a late will of an old one cannot hide a newer online
      this.session = this.seq.next();
      this.client.options.will = this.will();
      // MQTT.js's TLS stream writes the host it connected to into the shared options as the
      // name to check; without this the next node's certificate would be checked against the
      // previous node's name.
      if (broker.servers && !options.servername) delete this.client.options.servername;
      // A renewed certificate (or a new CA file) is trusted from the next connection on.
      if (options.caFile) {
        try {
          Object.assign(this.client.options, pinnedCa(options));
        } catch (err) {
          options.log(`${this.deviceNo}: cannot re-read ${options.caFile} (${(err as Error).message}); the certificates read before stay trusted`);
        }
      }
    });
    this.client.on('connect', () => {
      // Answers are written right after the command's PUBACK: without this each waited for the broker's delayed ACK.
      noDelay(this.client);
      this.onConnect();
    });
    this.client.on('close', () => this.scheduleReconnect());
    this.client.on('message', (topic, payload) => this.onMessage(topic, payload));
    this.client.on('error', (err) => {
      if ('code' in err && typeof err.code === 'number' && REFUSED_CONNACK_CODES.includes(err.code)) this.refused = true;
      if (err.message !== this.lastError) options.log(`${this.deviceNo}: mqtt error: ${err.message}`);
      this.lastError = err.message;
    });
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Resolves when the lift has connected once. */
  ready(): Promise<void> {
    return this.firstConnect;
  }

  /** Every lost connection and failed try ends in one 'close': the next try follows the reconnect rule. */
  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.backoff.nextDelayMs(Date.now(), this.refused);
    this.refused = false;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.stopped) return;
      // keep the stores: what was published while offline goes out after reconnecting
      this.client.reconnect({ incomingStore: this.client.incomingStore, outgoingStore: this.client.outgoingStore });
    }, delay);
  }

  private will(): NonNullable<IClientOptions['will']> {
    const message = { seq: this.session, ts: this.ts(), online: false, session: this.session };
    return { topic: liftTopic(this.deviceNo, 'presence'), payload: Buffer.from(encodeLiftMessage('presence', message)), qos: 1, retain: true };
  }

  private ts(): string {
    return new Date(this.machine.now).toISOString();
  }

  private publish<K extends UplinkTopic>(kind: K, body: Omit<LiftMessages[K], 'seq' | 'ts'>): void {
    const message = { seq: this.seq.next(), ts: this.ts(), ...body } as LiftMessages[K];
    const { qos, retain } = TOPIC_RULES[kind];
    // QoS 1 with a persistent session: while offline, MQTT.js keeps the message in its store and sends it after reconnecting
    this.client.publish(liftTopic(this.deviceNo, kind), encodeLiftMessage(kind, message), { qos, retain }, (err) => {
      if (err && !this.stopped) this.options.log(`${this.deviceNo}: publish ${kind} failed: ${err.message}`);
    });
  }

  private onConnect(): void {
    this.lastError = '';
    this.backoff.connected(Date.now());
    this.publish('presence', { online: true, session: this.session, firmware: this.machine.firmware });
    this.client.subscribe(
      DOWNLINK_TOPICS.filter((kind) => kind !== FIRMWARE_OFFER_TOPIC).map((kind) => liftTopic(this.deviceNo, kind)),
      { qos: 1 },
      (err) => err && this.options.log(`${this.deviceNo}: subscribe failed: ${err.message}`),
    );
    // on its own: a broker whose ACL does not know the firmware topics (an older server's) refuses only this one
    this.client.subscribe(firmwareOfferTopic(this.deviceNo), { qos: 1 }, (err, granted) => {
      const refused = err ? err.message : granted?.some((g) => g.qos >= 0x80) ? 'refused by the broker' : null;
      if (refused) this.options.log(`${this.deviceNo}: subscribe ${firmwareOfferTopic(this.deviceNo)} failed (${refused}); no firmware offers reach this lift`);
    });
    if (!this.everConnected) this.publishConfig();
    this.everConnected = true;
    this.publishStatus();
    // the alarm device's last test and battery on every connection; a report due already is this one
    this.machine.alarm.takeReport();
    this.publish('alarm', this.machine.alarm.report());
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (topic === firmwareOfferTopic(this.deviceNo)) {
      // the updater verifies and reports (a refusal too); nothing of it is a machine input
      this.firmware.receive(payload).catch(() => {});
      return;
    }
    const decoded = decodeLiftMessage(topic, payload);
    if (!decoded.ok || decoded.deviceNo !== this.deviceNo) {
      this.options.log(`${this.deviceNo}: dropped message on ${topic}: ${decoded.ok ? 'foreign' : decoded.reason}`);
      return;
    }
    if (decoded.kind === 'cmd') this.machine.handleCommand(decoded.message);
    else if (decoded.kind === 'config/set') this.machine.handleConfigSet(decoded.message);
    else if (decoded.kind === 'config/get') this.machine.handleConfigGet(decoded.message);
    this.flush();
  }

  /** A `firmware/state` report, with seq and ts as every uplink message; resolves on its PUBACK. */
  private publishFirmwareState(report: FirmwareStateReport): Promise<void> {
    const message = { seq: this.seq.next(), ts: this.ts(), ...report };
    const checked = firmwareStateMessageSchema.safeParse(message);
    if (!checked.success) {
      this.options.log(`${this.deviceNo}: not sending an invalid firmware/state report (${checked.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}): ${JSON.stringify(message)}`);
      return Promise.resolve();
    }
    if (this.stopped) return Promise.resolve();
    const { qos, retain } = FIRMWARE_TOPICS[FIRMWARE_STATE_TOPIC];
    return new Promise((resolve) => {
      this.client.publish(firmwareStateTopic(this.deviceNo), JSON.stringify(message), { qos, retain }, (err) => {
        if (err && !this.stopped) this.options.log(`${this.deviceNo}: publish firmware/state failed: ${err.message}`);
        resolve();
      });
    });
  }

  /**
   * The controller restarts into a new image: the connection drops as at a power cut (the
   * broker publishes the will), the lift reconnects by its reconnect rule and announces
   * itself with the firmware it runs now. Resolves once it is connected again.
   */
  private reboot(signal: AbortSignal): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const back = new Promise<void>((resolve) => {
      const done = () => {
        this.client.off('connect', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.client.on('connect', done);
      signal.addEventListener('abort', done, { once: true });
    });
    this.client.stream?.destroy();
    return back;
  }

  private publishConfig(commandId?: string): void {
    this.publish('config/report', { version: this.machine.configVersion, config: this.machine.config, ...(commandId ? { commandId } : {}) });
  }

  private publishStatus(): void {
    this.lastStatusAt = this.machine.now;
    this.lastStatusKey = this.machine.statusKey();
    this.publish('status', { status: this.machine.status() });
  }

  private send(out: LiftOutput): void {
    if (out.type === 'event') this.publish('event', { code: out.code, ...(out.floor ? { floor: out.floor } : {}) });
    else if (out.type === 'configReport') this.publishConfig(out.commandId);
    else this.publish('cmd/ack', { commandId: out.commandId, state: out.state, ...(out.reason ? { reason: out.reason } : {}), ...(out.issues ? { issues: out.issues } : {}) });
  }

  /** Publishes what the machine said, and a status snapshot when something discrete changed or the period is over. */
  flush(): void {
    // until the first connection the machine keeps what it said (RZOP), so it follows presence and status
    if (this.stopped || !this.everConnected) return;
    const outputs = this.machine.drain();
    for (const out of outputs) this.send(out);
    const alarm = this.machine.alarm.takeReport();
    if (alarm) this.publish('alarm', alarm);
    // snapshots are not queued while offline: a fresh one goes out on reconnect
    if (!this.client.connected) return;
    const period = this.machine.moving ? this.options.statusMovingMs : this.options.statusIdleMs;
    const changed = outputs.length > 0 || this.machine.statusKey() !== this.lastStatusKey;
    if (changed || this.machine.now - this.lastStatusAt >= period) this.publishStatus();
  }

  /** Cuts the network without a DISCONNECT, as a power or network failure would: the broker publishes the will. The client reconnects. */
  dropConnection(): void {
    this.client.stream?.destroy();
  }

  /** Says goodbye (retained offline presence) and disconnects. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.firmware.stop();
    if (this.client.connected) {
      this.flush();
      this.publish('presence', { online: false, session: this.session });
    }
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    // A lift switched off does not wait for ever. MQTT.js ends a connection only once every
    // acknowledgement it is owed has come, also one owed for a message sent to a broker node
    // that has gone since (seen after a move to another node): past STOP_GRACE_MS what is still
    // unacknowledged is given up and the connection closes with its DISCONNECT all the same.
    const ended = this.client.endAsync(!this.client.connected);
    const giveUp = setTimeout(() => this.client.emit('outgoingEmpty'), STOP_GRACE_MS);
    try {
      await ended;
    } finally {
      clearTimeout(giveUp);
    }
  }
}
