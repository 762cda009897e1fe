import { parseArgs } from 'node:util';
import { LOCAL_SETTLE_MS, parseBrokerAddress } from '@liftlink/protocol';
import { firmwareKeySchema } from './firmware-updater.ts';
import type { FleetOptions } from './fleet.ts';
import { SERIAL_USAGE, serialSource, type SerialSource } from './serial/cli-options.ts';
import { WEAR_SCENARIOS, type WearScenario, type WearSpec } from './wear.ts';

export const USAGE = `LiftLink lift simulator: virtual lifts speaking the device MQTT protocol.

Usage: npm run simulator -- [options]

  --count N             simulate N lifts SIM-0001..SIM-N (no password; for an open broker)
  --prefix P            device-number prefix for --count (default SIM)
  --fleet FILE          lifts from a JSON file: [{"deviceNo","secret","kind","floors"}]
  --fleet-stdin         the same JSON read from stdin (embedded mode; stdout only carries the ready line)
  --mqtt URL[,URL...]   broker URL (default $MQTT_URL or mqtt://127.0.0.1:1883); mqtts://host:8883 for TLS.
                        A clustered broker: its nodes separated by commas, e.g.
                        mqtt://node1:1883,mqtt://node2:1883; each try goes to the next node (all TLS or
                        all plain; no user name or password in the URLs; a path only on a single ws:// or wss:// broker)
  --ca FILE             with mqtts: trust only the PEM certificates in FILE (a CA, an intermediate or the
                        broker's own certificate), as a lift that pins its CA; default: the system's CAs
  --servername NAME     with mqtts: the name the broker's certificate must be for (default: the URL's host,
                        with several nodes each node's own)
  --fault-rate R        random faults per lift per hour (default 0.05; 0 = none)
  --activity R          local calls per lift per hour, so the fleet moves (default 4; 0 = none)
  --status-interval S   status snapshot period while idle, seconds (default 10; 1 s while moving)
  --alarm-test-interval S  period of each lift's alarm-device self-test, seconds (default 86400, a day;
                        the first test runs a minute after the start)
  --wear NO=SCENARIO[,NO=SCENARIO...]  wear scenarios per lift, for the condition score: ${WEAR_SCENARIOS.join(', ')}
                        (battery ageing, a stiffening drive, a chattering flap sensor), e.g.
                        --wear SIM-0001=batteryAgeing,SIM-0002=stiffDrive (in a fleet file: "wear": {"scenario", "ageDays", "ageDaysPerHour"})
  --wear-age DAYS       the worn lifts' age at the start, days (default 0: new)
  --wear-speed D        simulated days of wear per real hour (default 0.0417: real time; 8760 ages a year in an hour)
  --firmware-key BASE64 a raw Ed25519 public key (32 bytes, base64) every lift trusts for firmware offers,
                        as the factory bench writes it; repeatable (in a fleet file, per lift: "firmwareKeys": [...]).
                        Without any key a lift refuses every offer (unknownKey)
  --firmware-base URL   the cloud's address a firmware manifest's path url is resolved against, e.g.
                        https://cloud.example.com (http:// for tests); downloads with --ca trust only FILE
  --seed N              seed of the random behaviour
  --help                this text

Prints {"ready":true,"count":N} on stdout once the lifts are connected; logs go to stderr.

Signals:
  SIGTERM, SIGINT       every lift says offline, then the process exits
  SIGUSR2               someone on site uses the lifts: presses the platform button (RZLB) of every
                        simulated lift, which then refuses remote movement for ${LOCAL_SETTLE_MS / 1000} s and forgets its
                        control leases (docs/remote-control.md), e.g. kill -USR2 <pid>
${SERIAL_USAGE}`;

export type FleetSource = { type: 'count'; count: number; prefix: string } | { type: 'file'; path: string } | { type: 'stdin' } | SerialSource;

export interface CliOptions {
  source: FleetSource;
  fleet: Omit<FleetOptions, 'lifts' | 'log'>;
}

function number(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

/** Parses the command line; throws an Error with a readable message on bad input, returns null for --help. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      count: { type: 'string' },
      prefix: { type: 'string' },
      fleet: { type: 'string' },
      'fleet-stdin': { type: 'boolean' },
      mqtt: { type: 'string' },
      ca: { type: 'string' },
      servername: { type: 'string' },
      'fault-rate': { type: 'string' },
      activity: { type: 'string' },
      'status-interval': { type: 'string' },
      'alarm-test-interval': { type: 'string' },
      seed: { type: 'string' },
      'firmware-key': { type: 'string', multiple: true },
      'firmware-base': { type: 'string' },
      wear: { type: 'string' },
      'wear-age': { type: 'string' },
      'wear-speed': { type: 'string' },
      help: { type: 'boolean' },
      serial: { type: 'string' },
      state: { type: 'string' },
      kind: { type: 'string' },
      floors: { type: 'string' },
      'controller-serial': { type: 'string' },
      baud: { type: 'string' },
    },
  });
  if (values.help) return null;
  const sources = [values.count !== undefined, values.fleet !== undefined, values['fleet-stdin'] === true, values.serial !== undefined].filter(Boolean).length;
  if (sources !== 1) throw new Error('give exactly one of --count, --fleet, --fleet-stdin or --serial');
  const prefix = values.prefix ?? 'SIM';
  if (!/^[A-Z0-9]{1,20}$/.test(prefix)) throw new Error('--prefix must be 1 to 20 upper-case letters or digits');
  const source: FleetSource =
    values.serial !== undefined
      ? serialSource(values)
      : values.count !== undefined
      ? { type: 'count', count: number('count', values.count, 0, 1, 100_000), prefix }
      : values.fleet !== undefined
        ? { type: 'file', path: values.fleet }
        : { type: 'stdin' };
  if (source.type === 'count' && !Number.isInteger(source.count)) throw new Error('--count must be a whole number');
  const seed = values.seed === undefined ? undefined : number('seed', values.seed, 0, 0, 2 ** 32 - 1);
  const mqttUrl = values.mqtt ?? env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
  // a serial controller takes its broker from its stored credentials or --mqtt, never from MQTT_URL
  if (source.type !== 'serial' || values.mqtt !== undefined) {
    try {
      parseBrokerAddress(mqttUrl);
    } catch (err) {
      throw new Error(`${values.mqtt !== undefined ? '--mqtt' : 'MQTT_URL'}: ${(err as Error).message}`);
    }
  }
  // a valid list holds TLS nodes only or plain nodes only, so its first entry tells
  const secure = /^(mqtts|wss):/i.test(mqttUrl.trim());
  if (!secure && (values.ca !== undefined || values.servername !== undefined)) throw new Error('--ca and --servername need a TLS broker URL (mqtts:// or wss://)');
  return {
    source,
    fleet: {
      mqttUrl,
      ...(values.ca !== undefined ? { caFile: values.ca } : {}),
      ...(values.servername !== undefined ? { servername: values.servername } : {}),
      faultRatePerHour: number('fault-rate', values['fault-rate'], 0.05, 0, 3_600),
      activityPerHour: number('activity', values.activity, 4, 0, 3_600),
      statusIdleMs: number('status-interval', values['status-interval'], 10, 0.1, 3_600) * 1000,
      ...(seed !== undefined ? { seed } : {}),
      ...wearOption(values.wear, values['wear-age'], values['wear-speed']),
      ...firmwareOptions(values['firmware-key'], values['firmware-base']),
      ...(values['alarm-test-interval'] !== undefined ? { alarmTestIntervalMs: number('alarm-test-interval', values['alarm-test-interval'], 86_400, 1, 3 * 86_400) * 1000 } : {}),
    },
  };
}

/** `--firmware-key BASE64` (repeatable) and `--firmware-base URL`. */
function firmwareOptions(keys: string[] | undefined, base: string | undefined): Pick<FleetOptions, 'firmwareKeys' | 'firmwareBaseUrl'> {
  for (const key of keys ?? []) if (!firmwareKeySchema.safeParse(key).success) throw new Error(`--firmware-key must be a raw Ed25519 public key in base64 (32 bytes): ${key}`);
  if (base !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(base);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new Error('--firmware-base must be an http:// or https:// URL');
  }
  return { ...(keys?.length ? { firmwareKeys: keys } : {}), ...(base !== undefined ? { firmwareBaseUrl: base } : {}) };
}

/** `--wear SIM-0001=batteryAgeing,SIM-0002=stiffDrive` with `--wear-age` / `--wear-speed` for all of them. */
function wearOption(raw: string | undefined, age: string | undefined, speed: string | undefined): { wear?: Record<string, WearSpec> } {
  if (raw === undefined) {
    if (age !== undefined || speed !== undefined) throw new Error('--wear-age and --wear-speed need --wear');
    return {};
  }
  const ageDays = number('wear-age', age, 0, 0, 10_000);
  const ageDaysPerHour = number('wear-speed', speed, 1 / 24, 0, 1_000_000);
  const wear: Record<string, WearSpec> = {};
  for (const pair of raw.split(',')) {
    const [deviceNo, scenario] = pair.split('=').map((p) => p.trim());
    if (!deviceNo || !scenario || !(WEAR_SCENARIOS as readonly string[]).includes(scenario)) throw new Error(`--wear takes DEVICENO=SCENARIO pairs, the scenario one of ${WEAR_SCENARIOS.join(', ')}`);
    wear[deviceNo] = { scenario: scenario as WearScenario, ageDays, ageDaysPerHour };
  }
  return { wear };
}
