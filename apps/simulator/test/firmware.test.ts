import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import {
  firmwareStateMessageSchema,
  isFirmwareTransition,
  liftTopic,
  type FirmwareStateMessage,
} from '@liftlink/protocol';
import { firmwareOfferTopic, firmwareStateTopic } from '../src/firmware-updater.ts';
import { startFleet } from '../src/fleet.ts';
import { startImageServer, TestSigner, type ImageServer } from './firmware-server.ts';
import { Observer, startBroker, waitFor } from './harness.ts';

describe('firmware update over MQTT (docs/protocol.md section 11)', () => {
  let broker: Awaited<ReturnType<typeof startBroker>>;
  let server: ImageServer;
  let observer: Observer;
  const signer = new TestSigner();

  beforeAll(async () => {
    broker = await startBroker();
    server = await startImageServer();
    observer = await Observer.connect(broker.url);
  });
  afterAll(async () => {
    await observer?.close();
    await server?.close();
    await broker?.close();
  });

  it('an offer on firmware/offer is reported on firmware/state through to done; the lift comes back on the new version', async () => {
    const no = 'SIM-FW01';
    const states: FirmwareStateMessage[] = [];
    const cloud = await mqtt.connectAsync(broker.url, {
      clientId: `cloud-${process.pid}`,
      clean: true,
    });
    cloud.on('message', (_topic, payload) =>
      states.push(firmwareStateMessageSchema.parse(JSON.parse(payload.toString()))),
    );
    await cloud.subscribeAsync(firmwareStateTopic(no), { qos: 1 });
    const fleet = await startFleet({
      mqttUrl: broker.url,
      lifts: [
        {
          deviceNo: no,
          kind: 'inclined2dRack',
          floors: 2,
          firmware: 'SIM-1.0.0',
          firmwareKeys: [signer.keys.publicKey],
          ota: { cutDownloadAt: 0.3, waitScale: 0.001 },
        },
      ],
      firmwareBaseUrl: server.base,
      tickMs: 50,
      statusIdleMs: 300,
      reconnectMs: 100,
      log: () => {},
    });
    try {
      // its status follows its subscriptions on the same connection
      await waitFor(() => observer.of('status', no).length > 0, 10_000, 'online');
      const pkg = server.addPackage(512 * 1024);
      const offer = signer.offer(
        pkg,
        { deviceNo: no, kind: 'inclined2dRack' },
        { seq: 1, version: 'SIM-1.3.0' },
      );
      await cloud.publishAsync(firmwareOfferTopic(no), JSON.stringify(offer), { qos: 1 });
      const done = await waitFor(
        () => states.find((s) => s.state === 'done'),
        20_000,
        'done on firmware/state',
      );
      expect(done).toMatchObject({
        offerSeq: 1,
        version: 'SIM-1.3.0',
        runningVersion: 'SIM-1.3.0',
      });
      const order = states.map((s) => s.state).filter((s, i, all) => s !== all[i - 1]);
      expect(order).toEqual([
        'queued',
        'downloading',
        'verifying',
        'installing',
        'rebooting',
        'done',
      ]);
      order.forEach((s, i) => expect(isFirmwareTransition(i ? order[i - 1]! : null, s)).toBe(true));
      const seqs = states.map((s) => s.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      // the connection was cut at 30 % and resumed from there
      expect(pkg.requests().map((r) => r.range)).toEqual([
        undefined,
        `bytes=${Math.floor(pkg.image.length * 0.3)}-`,
      ]);
      // it restarted: its will said offline, then it came back announcing the new firmware
      const presence = observer.of('presence', no);
      const reboot = presence.findIndex((p) => !p.online);
      expect(reboot).toBeGreaterThan(0);
      expect(presence.slice(reboot + 1).find((p) => p.online)?.firmware).toBe('SIM-1.3.0');
      expect(fleet.lift(no)!.machine.firmware).toBe('SIM-1.3.0');
    } finally {
      await fleet.stop();
      await cloud.endAsync(true);
    }
  });

  it('a broker that refuses the firmware/offer subscription does not stop the lift', async () => {
    const no = 'SIM-FW02';
    const refusing = await startBroker();
    const logs: string[] = [];
    refusing.broker.authorizeSubscribe = (_client, sub, done) =>
      done(null, sub.topic.endsWith('/firmware/offer') ? null : sub);
    const own = await Observer.connect(refusing.url);
    const fleet = await startFleet({
      mqttUrl: refusing.url,
      lifts: [{ deviceNo: no, kind: 'verticalHydraulic', floors: 2 }],
      tickMs: 50,
      statusIdleMs: 300,
      reconnectMs: 100,
      log: (line) => logs.push(line),
    });
    try {
      await waitFor(
        () => logs.some((l) => l.includes(`subscribe ${firmwareOfferTopic(no)} failed`)),
        10_000,
        'the refusal logged',
      );
      await own.send(liftTopic(no, 'config/get'), { commandId: 'after-refusal' });
      await waitFor(
        () => own.of('cmd/ack', no).find((a) => a.commandId === 'after-refusal'),
        10_000,
        'an answer',
      );
      expect(fleet.lift(no)!.connected).toBe(true);
    } finally {
      await fleet.stop();
      await own.close();
      await refusing.close();
    }
  });
});
