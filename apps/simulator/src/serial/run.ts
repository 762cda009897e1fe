import { SIM_FIRMWARE } from '../lift-machine.ts';
import { pressPlatformButtonsOnSignal } from '../local-use-signal.ts';
import { stopOnSignals } from '../shutdown.ts';
import type { SerialSource } from './cli-options.ts';
import { startSerialController, type SerialControllerHandle } from './serial-controller.ts';

/**
 * `--serial PATH`: runs one controller until SIGTERM / SIGINT (SIGUSR2 presses its platform button). Prints one line on stdout,
 * `{"ready":true,"serial":PATH,"controllerSerial":S}`, once its settings are loaded.
 */
export async function runSerialController(
  source: SerialSource,
  log: (line: string) => void,
  /** `--firmware-base`: where the cloud's image paths are resolved (offers from an http PUBLIC_URL carry a path). */
  firmwareBaseUrl?: string,
): Promise<void> {
  let handle: SerialControllerHandle | null = null;
  stopOnSignals(
    `the controller on ${source.path}`,
    () => (handle ? handle.stop() : Promise.resolve()),
    log,
  );
  pressPlatformButtonsOnSignal(() => (handle ? [handle.core.machine] : []), log);
  handle = await startSerialController({
    path: source.path,
    baudRate: source.baudRate,
    stateFile: source.stateFile,
    identity: {
      kind: source.kind,
      floors: source.floors,
      firmware: SIM_FIRMWARE,
      ...(source.controllerSerial ? { controllerSerial: source.controllerSerial } : {}),
    },
    ...(source.mqttUrlOverride ? { mqttUrlOverride: source.mqttUrlOverride } : {}),
    ...(firmwareBaseUrl ? { firmwareBaseUrl } : {}),
    log,
  });
  const { identity, deviceNo } = handle.core.state;
  process.stdout.write(
    `${JSON.stringify({ ready: true, serial: source.path, controllerSerial: identity.controllerSerial })}\n`,
  );
  log(
    `simulator: controller ${identity.controllerSerial} (${identity.kind}, ${identity.floors} floors, device number ${deviceNo ?? 'not assigned'}) on ${source.path}, settings in ${source.stateFile}`,
  );
}
