import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_FIELD_PORT_SETTINGS,
  DEFAULT_POLLING_CHANNEL,
  POLLING_CHANNELS,
  configVersionSchema,
  controllerSerialSchema,
  conversionTableSchema,
  deviceKindSchema,
  deviceNoSchema,
  deviceSecretSchema,
  firmwareTrustedKeySchema,
  FIRMWARE_KEYS_MAX,
  firmwareSchema,
  floorCountSchema,
  mqttUrlSchema,
  pollingChannelSchema,
  portSettingsSchema,
  wireConfigSchema,
  type DeviceKind,
} from '@liftlink/protocol';

/**
 * What a controller keeps in flash, as one JSON file. It is only ever replaced whole:
 * written to a temporary file in the same folder, flushed to disk, then renamed over the
 * old one, so a crash or a pulled plug leaves either the old or the new settings, never
 * a mix.
 */
export const controllerStateSchema = z.strictObject({
  format: z.literal(1),
  /** Written at production, never changed over the serial link. */
  identity: z.strictObject({ controllerSerial: controllerSerialSchema, kind: deviceKindSchema, floors: floorCountSchema, firmware: firmwareSchema }),
  deviceNo: deviceNoSchema.nullable(),
  credentials: z.strictObject({ mqttUrl: mqttUrlSchema, secret: deviceSecretSchema }).nullable(),
  /** The saved configuration; null until one was saved (factory defaults, version 0). */
  config: z.strictObject({ version: configVersionSchema, values: wireConfigSchema }).nullable(),
  channels: z.array(pollingChannelSchema).length(POLLING_CHANNELS),
  conversions: conversionTableSchema,
  /** The controller's RS-485 port to the slaves it polls. */
  fieldPort: portSettingsSchema,
  /** The firmware signing keys it trusts, written at the bench (none in a file of an older controller). */
  firmwareKeys: z.array(firmwareTrustedKeySchema).max(FIRMWARE_KEYS_MAX).default([]),
});
export type ControllerState = z.infer<typeof controllerStateSchema>;

export interface ControllerIdentity {
  controllerSerial?: string;
  kind: DeviceKind;
  floors: number;
  firmware: string;
}

export function freshState(identity: ControllerIdentity): ControllerState {
  return {
    format: 1,
    identity: {
      controllerSerial: identity.controllerSerial ?? `SIMC-${randomBytes(4).toString('hex').toUpperCase()}`,
      kind: identity.kind,
      floors: identity.floors,
      firmware: identity.firmware,
    },
    deviceNo: null,
    credentials: null,
    config: null,
    channels: Array.from({ length: POLLING_CHANNELS }, () => ({ ...DEFAULT_POLLING_CHANNEL })),
    conversions: [],
    fieldPort: { ...DEFAULT_FIELD_PORT_SETTINGS },
    firmwareKeys: [],
  };
}

export class StateFileError extends Error {}

/** Reads the state file; creates it from `identity` when it does not exist. A damaged file stops the start with a message. */
export async function loadState(file: string, identity: ControllerIdentity): Promise<ControllerState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new StateFileError(`cannot read ${file}: ${(err as Error).message}`);
    const state = freshState(identity);
    await saveState(file, state);
    return state;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError(`${file} is not valid JSON; move it away to start with factory settings`);
  }
  const parsed = controllerStateSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new StateFileError(`${file} is not a controller state file (${first?.path.join('.')}: ${first?.message})`);
  }
  if (identity.controllerSerial && identity.controllerSerial !== parsed.data.identity.controllerSerial) {
    throw new StateFileError(`${file} belongs to controller ${parsed.data.identity.controllerSerial}, not ${identity.controllerSerial}`);
  }
  return parsed.data;
}

/** Replaces the state file atomically (temporary file, fsync, rename). */
export async function saveState(file: string, state: ControllerState): Promise<void> {
  const valid = controllerStateSchema.parse(state);
  const dir = path.dirname(path.resolve(file));
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(valid, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
