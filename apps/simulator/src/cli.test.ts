import { describe, expect, it } from 'vitest';
import { parseCli } from './cli.ts';
import { fleetSpecSchema, generateFleet } from './fleet.ts';
import { DEVICE_KINDS } from '@liftlink/protocol';
import { generateFirmwareKeyPair } from '../../../packages/protocol/src/device/firmware-signature.ts';

describe('command line', () => {
  it('reads a generated fleet with its options', () => {
    const cli = parseCli(['--count', '100', '--mqtt', 'mqtt://broker:1884', '--fault-rate', '0', '--status-interval', '5', '--seed', '7'], {});
    expect(cli).toEqual({
      source: { type: 'count', count: 100, prefix: 'SIM' },
      fleet: { mqttUrl: 'mqtt://broker:1884', faultRatePerHour: 0, activityPerHour: 4, statusIdleMs: 5_000, seed: 7 },
    });
  });

  it('takes the broker from MQTT_URL and a fleet from a file or stdin', () => {
    expect(parseCli(['--fleet', 'lifts.json'], { MQTT_URL: 'mqtt://x:1' })).toMatchObject({ source: { type: 'file', path: 'lifts.json' }, fleet: { mqttUrl: 'mqtt://x:1' } });
    expect(parseCli(['--fleet-stdin'], {})).toMatchObject({ source: { type: 'stdin' }, fleet: { mqttUrl: 'mqtt://127.0.0.1:1883' } });
  });

  it('takes a pinned CA and a server name for a TLS broker only', () => {
    expect(parseCli(['--count', '1', '--mqtt', 'mqtts://broker:8883', '--ca', 'ca.pem', '--servername', 'lifts.example.com'], {})).toMatchObject({
      fleet: { mqttUrl: 'mqtts://broker:8883', caFile: 'ca.pem', servername: 'lifts.example.com' },
    });
    expect(() => parseCli(['--count', '1', '--mqtt', 'mqtt://broker:1883', '--ca', 'ca.pem'], {})).toThrow(/--ca and --servername need a TLS broker URL/);
  });

  it('takes the nodes of a clustered broker and refuses a bad list, saying where it came from', () => {
    const nodes = 'mqtt://node1:1883, mqtt://node2:1884';
    expect(parseCli(['--count', '1', '--mqtt', nodes], {})).toMatchObject({ fleet: { mqttUrl: nodes } });
    expect(parseCli(['--count', '1', '--mqtt', 'mqtts://node1,mqtts://node2', '--ca', 'ca.pem'], {})).toMatchObject({ fleet: { caFile: 'ca.pem' } });
    expect(() => parseCli(['--count', '1', '--mqtt', 'mqtt://node1,,mqtt://node2'], {})).toThrow(/^--mqtt: broker address: entry 2 of 3 is empty/);
    expect(() => parseCli(['--count', '1', '--mqtt', 'mqtts://node1,mqtt://node2'], {})).toThrow(/--mqtt: .*"mqtt:\/\/node2" is plain/);
    expect(() => parseCli(['--count', '1'], { MQTT_URL: 'mqtt://node1,http://node2' })).toThrow(/^MQTT_URL: .*"http:\/\/node2" has the unknown scheme/);
    expect(() => parseCli(['--count', '1', '--mqtt', 'mqtt://node1,mqtt://node2', '--ca', 'ca.pem'], {})).toThrow(/--ca and --servername need a TLS broker URL/);
  });

  it('takes the firmware keys the lifts trust (repeatable) and the download address', () => {
    const a = generateFirmwareKeyPair().publicKey;
    const b = generateFirmwareKeyPair().publicKey;
    expect(parseCli(['--count', '1', '--firmware-key', a, '--firmware-key', b, '--firmware-base', 'https://cloud.example.com'], {})).toMatchObject({
      fleet: { firmwareKeys: [a, b], firmwareBaseUrl: 'https://cloud.example.com' },
    });
    expect(() => parseCli(['--count', '1', '--firmware-key', 'AAAA'], {})).toThrow(/--firmware-key/);
    expect(() => parseCli(['--count', '1', '--firmware-base', 'ftp://x'], {})).toThrow(/--firmware-base/);
  });

  it('refuses contradictions and nonsense', () => {
    expect(() => parseCli([], {})).toThrow(/exactly one/);
    expect(() => parseCli(['--count', '2', '--fleet-stdin'], {})).toThrow(/exactly one/);
    expect(() => parseCli(['--count', 'many'], {})).toThrow(/--count/);
    expect(() => parseCli(['--count', '2.5'], {})).toThrow(/whole/);
    expect(() => parseCli(['--count', '2', '--fault-rate', '-1'], {})).toThrow(/--fault-rate/);
    expect(() => parseCli(['--count', '2', '--prefix', 'a/b'], {})).toThrow(/--prefix/);
    expect(() => parseCli(['--bogus'], {})).toThrow();
    expect(parseCli(['--help'], {})).toBeNull();
  });
});

describe('fleet', () => {
  it('spreads a generated fleet over the five kinds with valid device numbers', () => {
    const lifts = generateFleet(10);
    expect(lifts[0]).toMatchObject({ deviceNo: 'SIM-0001' });
    expect(new Set(lifts.map((l) => l.kind))).toEqual(new Set(DEVICE_KINDS));
    expect(fleetSpecSchema.safeParse(lifts).success).toBe(true);
    expect(generateFleet(12_345).at(-1)?.deviceNo).toBe('SIM-12345');
  });

  it('validates a fleet file', () => {
    expect(fleetSpecSchema.safeParse([{ deviceNo: 'LL-0001', secret: 'x', kind: 'verticalHydraulic', floors: 2 }]).success).toBe(true);
    expect(fleetSpecSchema.safeParse([{ deviceNo: 'bad/no', kind: 'verticalHydraulic', floors: 2 }]).success).toBe(false);
    expect(fleetSpecSchema.safeParse([{ deviceNo: 'LL-0001', kind: 'verticalHydraulic', floors: 5 }]).success).toBe(false);
    const twice = { deviceNo: 'LL-0001', kind: 'inclined2dRack', floors: 2 };
    expect(fleetSpecSchema.safeParse([twice, twice]).success).toBe(false);
  });

  it('reads firmware keys and firmware-update failure injection per lift', () => {
    const lift = { deviceNo: 'LL-0001', kind: 'verticalHydraulic', floors: 2, firmware: 'SIM-1.0.0' };
    const key = generateFirmwareKeyPair().publicKey;
    const ota = { cutDownloadAt: 0.5, corruptImage: true, failBoot: true, failInstall: false, waitScale: 0.01 };
    expect(fleetSpecSchema.safeParse([{ ...lift, firmwareKeys: [key], ota }]).success).toBe(true);
    expect(fleetSpecSchema.safeParse([{ ...lift, firmwareKeys: ['not a key'] }]).success).toBe(false);
    expect(fleetSpecSchema.safeParse([{ ...lift, ota: { cutDownloadAt: 1.5 } }]).success).toBe(false);
    expect(fleetSpecSchema.safeParse([{ ...lift, ota: { explode: true } }]).success).toBe(false);
  });
});
