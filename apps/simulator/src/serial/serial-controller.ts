import { SerialPort } from 'serialport';
import type { Handshake } from '@liftlink/protocol';
import { MqttLift } from '../mqtt-lift.ts';
import { ControllerCore } from './controller.ts';
import { loadState, saveState, type ControllerIdentity } from './controller-state.ts';

export interface SerialControllerOptions {
  /** The serial device, e.g. /dev/ttyUSB0 or one end of a socat pseudo-terminal pair. */
  path: string;
  baudRate?: number;
  /** The controller's flash: a JSON file that survives restarts. */
  stateFile: string;
  identity: ControllerIdentity;
  /** Replaces the broker address written with the credentials (when the simulator sees the broker elsewhere). */
  mqttUrlOverride?: string;
  /** The cloud's address a firmware manifest's path is resolved against (`--firmware-base`). */
  firmwareBaseUrl?: string;
  statusIdleMs?: number;
  tickMs?: number;
  /** How often to try again to open a port that is missing (cable out), ms. */
  reopenMs?: number;
  reconnectMs?: number;
  log?: (line: string) => void;
}

export interface SerialControllerHandle {
  readonly core: ControllerCore;
  /** The MQTT lift, once credentials are stored. */
  lift(): MqttLift | null;
  mqttState(): Handshake['mqtt'];
  portOpen(): boolean;
  stop(): Promise<void>;
}

/**
 * A simulated lift controller on a serial port: answers the serial protocol with its
 * settings kept in a state file, and once it holds IoT credentials it is a lift on MQTT
 * (the simulator's MqttLift, sharing one lift machine with the serial side). The port is
 * opened again after it goes away, as a controller does when the cable is plugged back.
 */
export async function startSerialController(options: SerialControllerOptions): Promise<SerialControllerHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const state = await loadState(options.stateFile, options.identity);
  let lift: MqttLift | null = null;
  let refused = false;
  let stopped = false;
  let port: SerialPort | null = null;
  let reopenTimer: NodeJS.Timeout | undefined;
  const bootMs = Date.now();

  const mqttState = (): Handshake['mqtt'] => (!core.state.credentials ? 'none' : lift?.connected ? 'online' : refused ? 'refused' : 'connecting');

  async function restartLift(): Promise<void> {
    const old = lift;
    lift = null;
    refused = false;
    if (old) await old.stop();
    const { deviceNo, credentials, identity } = core.state;
    if (stopped || !deviceNo || !credentials) return;
    const mqttUrl = options.mqttUrlOverride ?? credentials.mqttUrl;
    log(`controller ${identity.controllerSerial}: connecting to ${mqttUrl} as ${deviceNo}`);
    lift = new MqttLift({
      mqttUrl,
      spec: { deviceNo, secret: credentials.secret, kind: identity.kind, floors: identity.floors, firmware: identity.firmware },
      machine: core.machine,
      // the keys written at the bench: offers signed by another are refused
      ota: { trustedKeys: core.state.firmwareKeys.map((k) => k.publicKey), ...(options.firmwareBaseUrl ? { downloadBase: options.firmwareBaseUrl } : {}) },
      bootMs,
      statusIdleMs: options.statusIdleMs ?? 10_000,
      statusMovingMs: 1_000,
      reconnectMs: options.reconnectMs ?? 2_000,
      log: (line) => {
        if (/not authori[sz]ed|bad user ?name or password/i.test(line)) refused = true;
        log(line);
      },
    });
  }

  const core: ControllerCore = new ControllerCore(state, {
    save: (next) => saveState(options.stateFile, next),
    onLinkSettingsChanged: () => {
      restartLift().catch((err: unknown) => log(`controller: mqtt restart failed: ${String(err)}`));
    },
    // a config report (answering a config/get of our own) tells the cloud about the new configuration
    onConfigWritten: () => lift?.machine.handleConfigGet({ commandId: `serial-${Date.now().toString(36)}` }),
    mqttState,
    log,
  });

  const timer = setInterval(() => {
    const now = Date.now();
    const m = core.machine;
    m.advance(Math.min(now - m.now, 10_000));
    m.now = now;
    if (lift) {
      if (lift.connected) refused = false;
      lift.flush();
    } else m.drain();
    core.expire(now);
    core.persistCloudConfig().catch((err: unknown) => log(`controller: saving the cloud configuration failed: ${String(err)}`));
  }, options.tickMs ?? 200);

  function openPort(): void {
    if (stopped) return;
    const p = new SerialPort({ path: options.path, baudRate: options.baudRate ?? 115_200, autoOpen: false });
    p.open((err) => {
      if (err) {
        reopenTimer = setTimeout(openPort, options.reopenMs ?? 1_000);
        return;
      }
      if (stopped) {
        p.close();
        return;
      }
      port = p;
      log(`controller ${core.state.identity.controllerSerial}: listening on ${options.path}`);
      p.on('data', (chunk: Buffer) => {
        core
          .receive(new Uint8Array(chunk), (reply) => {
            if (port === p && p.isOpen) p.write(Buffer.from(reply));
          })
          .catch((e: unknown) => log(`controller: ${String(e)}`));
      });
      p.on('close', () => {
        if (port === p) port = null;
        if (!stopped) {
          log(`controller: ${options.path} closed, trying to open it again`);
          reopenTimer = setTimeout(openPort, options.reopenMs ?? 1_000);
        }
      });
      p.on('error', (e) => log(`controller: serial error: ${e.message}`));
    });
  }

  openPort();
  await restartLift();

  return {
    core,
    lift: () => lift,
    mqttState,
    portOpen: () => port?.isOpen === true,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(reopenTimer);
      const p = port;
      port = null;
      if (p?.isOpen) await new Promise<void>((resolve) => p.close(() => resolve()));
      const l = lift;
      lift = null;
      await l?.stop();
    },
  };
}
