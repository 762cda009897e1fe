import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIRMWARE_PROGRESS_STEP_PERCENT,
  firmwareStateMessageSchema,
  firmwareTime,
  isFirmwareTransition,
  type FirmwareState,
  type FirmwareStateMessage,
} from '@liftlink/protocol';
import { startImageServer, TestSigner, type ImageServer } from '../test/firmware-server.ts';
import { FirmwareUpdater, type OtaFaults } from './firmware-updater.ts';
import { LiftMachine } from './lift-machine.ts';

/** Every wait of the updater at a thousandth: a deferred retry of 30 s takes 30 ms. */
const WAIT_SCALE = 0.001;
let counter = 0;

/** A simulated lift with its updater; its reports are checked against the contract as they come. */
function liftWithUpdater(server: ImageServer, signer: TestSigner, faults: OtaFaults = {}) {
  counter += 1;
  const deviceNo = `FW-${process.pid}-${counter}`;
  const machine = new LiftMachine({
    deviceNo,
    kind: 'inclinedStraightRack',
    floors: 2,
    now: Date.now(),
  });
  const reports: FirmwareStateMessage[] = [];
  let seq = 0;
  const updater = new FirmwareUpdater({
    lift: machine,
    trustedKeys: [signer.keys.publicKey],
    downloadBase: server.base,
    faults,
    waitScale: WAIT_SCALE,
    report: (report) => {
      seq += 1;
      reports.push(
        firmwareStateMessageSchema.parse({
          seq,
          ts: new Date(machine.now).toISOString(),
          ...report,
        }),
      );
    },
  });
  /** The states reported for one offer, each a transition section 11.7 allows. */
  const states = (offerSeq: number): FirmwareState[] => {
    const mine = reports.filter((r) => r.offerSeq === offerSeq).map((r) => r.state);
    mine.forEach((s, i) =>
      expect(isFirmwareTransition(i === 0 ? null : mine[i - 1]!, s)).toBe(true),
    );
    return mine;
  };
  const last = (offerSeq: number) => reports.filter((r) => r.offerSeq === offerSeq).at(-1);
  return { deviceNo, machine, updater, reports, states, last };
}

/** Consecutive equal states folded into one: `downloading` is reported many times. */
const folded = (states: FirmwareState[]) => states.filter((s, i) => s !== states[i - 1]);

describe('firmware updater (docs/protocol.md section 11)', () => {
  let server: ImageServer;
  const signer = new TestSigner();

  beforeAll(async () => {
    server = await startImageServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('downloads, verifies, installs and restarts: done, and the lift runs the new version', async () => {
    const { deviceNo, machine, updater, reports, states, last } = liftWithUpdater(server, signer);
    const pkg = server.addPackage();
    try {
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 1, version: 'SIM-1.1.0' }));
      await updater.settled();
      expect(folded(states(1))).toEqual([
        'queued',
        'downloading',
        'verifying',
        'installing',
        'rebooting',
        'done',
      ]);
      expect(machine.firmware).toBe('SIM-1.1.0');
      expect(last(1)).toMatchObject({ state: 'done', runningVersion: 'SIM-1.1.0' });
      expect(reports.find((r) => r.state === 'rebooting')?.runningVersion).toBe('SIM-1.0.0');
      // progress at most every 5 %, from 0 to 100 with the bytes
      const progress = reports.filter((r) => r.state === 'downloading');
      expect(progress[0]).toMatchObject({ percent: 0, bytes: 0 });
      expect(progress.at(-1)).toMatchObject({ percent: 100, bytes: pkg.image.length });
      for (let i = 1; i < progress.length - 1; i += 1)
        expect(progress[i]!.percent! - progress[i - 1]!.percent!).toBeGreaterThanOrEqual(
          FIRMWARE_PROGRESS_STEP_PERCENT,
        );
      // one GET of the whole image, with the token in a header and the lift named
      expect(pkg.requests()).toEqual([
        {
          packageId: pkg.packageId,
          range: undefined,
          authorization: `Bearer ${pkg.token}`,
          deviceNo,
          status: 200,
        },
      ]);
      expect(updater.lastSeq).toBe(1);
      // the restart is logged as power-on
      expect(machine.drain().filter((o) => o.type === 'event' && o.code === 'RZOP')).toHaveLength(
        2,
      );
    } finally {
      await updater.stop();
    }
  });

  it('waits while the lift is on a trip (deferred inTrip) and installs once it stands', async () => {
    const { deviceNo, machine, updater, reports, states, last } = liftWithUpdater(server, signer);
    const pkg = server.addPackage();
    let clock: NodeJS.Timeout | undefined;
    try {
      expect(machine.useLocally({ kind: 'floorCall', floor: 2 })).toBe(true);
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 1, version: 'SIM-1.2.0' }));
      // the lift's clock stands still until the lift has said why it waits
      await waitUntil(() => reports.some((r) => r.state === 'deferred'));
      const deferred = reports.find((r) => r.state === 'deferred')!;
      expect(deferred).toMatchObject({ reason: 'inTrip', runningVersion: 'SIM-1.0.0' });
      const waits = Date.parse(deferred.retryAt!) - Date.parse(deferred.ts);
      expect(waits).toBeGreaterThanOrEqual(30_000);
      expect(waits).toBeLessThan(60_000);
      expect(machine.firmware).toBe('SIM-1.0.0');
      // the trip runs on (at 50× speed) and ends at floor 2
      clock = setInterval(() => machine.advance(1_000), 20);
      await updater.settled();
      expect(machine.status().floor).toBe(2);
      expect(folded(states(1))).toEqual([
        'queued',
        'downloading',
        'verifying',
        'deferred',
        'installing',
        'rebooting',
        'done',
      ]);
      expect(last(1)?.runningVersion).toBe('SIM-1.2.0');
      expect(machine.firmware).toBe('SIM-1.2.0');
    } finally {
      clearInterval(clock);
      await updater.stop();
    }
  });

  it('resumes a download cut halfway with a Range request and ends done', async () => {
    const { deviceNo, machine, updater, states } = liftWithUpdater(server, signer, {
      cutDownloadAt: 0.5,
    });
    const pkg = server.addPackage();
    try {
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 7, version: 'SIM-1.1.0' }));
      await updater.settled();
      const half = Math.floor(pkg.image.length / 2);
      expect(pkg.requests().map((r) => [r.range, r.status])).toEqual([
        [undefined, 200],
        [`bytes=${half}-`, 206],
      ]);
      expect(folded(states(7)).at(-1)).toBe('done');
      expect(machine.firmware).toBe('SIM-1.1.0');
    } finally {
      await updater.stop();
    }
  });

  it('refuses a corrupted image (hashMismatch) and stays on its version', async () => {
    const { deviceNo, machine, updater, states, last } = liftWithUpdater(server, signer, {
      corruptImage: true,
    });
    const pkg = server.addPackage();
    try {
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 1, version: 'SIM-1.1.0' }));
      await updater.settled();
      expect(folded(states(1))).toEqual(['queued', 'downloading', 'verifying', 'failed']);
      expect(last(1)).toMatchObject({ reason: 'hashMismatch', runningVersion: 'SIM-1.0.0' });
      expect(machine.firmware).toBe('SIM-1.0.0');
    } finally {
      await updater.stop();
    }
  });

  it('rolls back when the new image does not start (bootFailed)', async () => {
    const { deviceNo, machine, updater, states, last } = liftWithUpdater(server, signer, {
      failBoot: true,
    });
    const pkg = server.addPackage();
    try {
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 1, version: 'SIM-1.1.0' }));
      await updater.settled();
      expect(folded(states(1)).slice(-3)).toEqual(['installing', 'rebooting', 'rolledBack']);
      expect(last(1)).toMatchObject({ reason: 'bootFailed', runningVersion: 'SIM-1.0.0' });
      expect(machine.firmware).toBe('SIM-1.0.0');
      expect(machine.firmwareInstalling).toBe(false);
    } finally {
      await updater.stop();
    }
  });

  it('refuses offers it must not take, with the reason, and downloads nothing', async () => {
    const { deviceNo, machine, updater, reports } = liftWithUpdater(server, signer);
    const pkg = server.addPackage();
    const stranger = new TestSigner();
    const now = Date.now();
    try {
      // the cloud's count stands at 10: an offer of the version it runs is accepted (done)
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 10, version: 'SIM-1.0.0' }));
      const good = signer.offer(pkg, { deviceNo }, { seq: 20, version: 'SIM-1.1.0' });
      const otherKeySameId = {
        ...stranger.offer(pkg, { deviceNo }, { seq: 21, version: 'SIM-1.1.0' }),
        keyId: signer.keys.keyId,
      };
      const offers: [string, unknown][] = [
        ['badSignature', { ...good, manifest: good.manifest.replace('"seq":20', '"seq":22') }],
        ['badSignature', otherKeySameId],
        ['unknownKey', stranger.offer(pkg, { deviceNo }, { seq: 23, version: 'SIM-1.1.0' })],
        ['badManifest', { manifest: 'nonsense' }],
        [
          'wrongLift',
          signer.offer(pkg, { deviceNo: 'LL-9999' }, { seq: 24, version: 'SIM-1.1.0' }),
        ],
        [
          'wrongKind',
          signer.offer(
            pkg,
            { deviceNo, kind: 'verticalHydraulic' },
            { seq: 25, version: 'SIM-1.1.0' },
          ),
        ],
        ['replayed', signer.offer(pkg, { deviceNo }, { seq: 9, version: 'SIM-1.1.0' })],
        [
          'expiredToken',
          signer.offer(
            pkg,
            { deviceNo },
            {
              seq: 26,
              version: 'SIM-1.1.0',
              issuedAt: firmwareTime(new Date(now - 7_200_000)),
              tokenExpiresAt: firmwareTime(new Date(now - 3_600_000)),
            },
          ),
        ],
        [
          'belowMinimum',
          signer.offer(
            pkg,
            { deviceNo },
            { seq: 27, version: 'SIM-2.1.0', minVersion: 'SIM-2.0.0' },
          ),
        ],
      ];
      for (const [, offer] of offers) await updater.receive(offer);
      await updater.settled();
      const refusals = reports.slice(1);
      expect(refusals.map((r) => r.reason)).toEqual(offers.map(([reason]) => reason));
      expect(refusals.every((r) => r.state === 'failed' && r.runningVersion === 'SIM-1.0.0')).toBe(
        true,
      );
      expect(refusals.find((r) => r.reason === 'replayed')).toMatchObject({
        offerSeq: 9,
        lastSeq: 10,
      });
      // what an unverified offer claims is named, as far as it can be read
      expect(refusals[0]).toMatchObject({ offerSeq: 22, packageId: pkg.packageId });
      expect(refusals[3]).toMatchObject({ offerSeq: null, packageId: null, version: null });
      expect(reports[0]).toMatchObject({ offerSeq: 10, state: 'done' });
      expect(updater.lastSeq).toBe(10);
      expect(pkg.requests()).toEqual([]);
      expect(machine.firmware).toBe('SIM-1.0.0');
    } finally {
      await updater.stop();
    }
  });

  it('fails withdrawn on 410 and tokenRefused on 401, staying on its version', async () => {
    const { deviceNo, machine, updater, last } = liftWithUpdater(server, signer);
    const withdrawn = server.addPackage(1024, { withdrawn: true });
    const pkg = server.addPackage(1024);
    try {
      await updater.receive(
        signer.offer(withdrawn, { deviceNo }, { seq: 1, version: 'SIM-1.1.0' }),
      );
      await updater.settled();
      expect(last(1)).toMatchObject({ state: 'failed', reason: 'withdrawn' });
      await updater.receive(
        signer.offer(pkg, { deviceNo }, { seq: 2, version: 'SIM-1.1.0', token: 'x'.repeat(32) }),
      );
      await updater.settled();
      expect(last(2)).toMatchObject({ state: 'failed', reason: 'tokenRefused' });
      expect(machine.firmware).toBe('SIM-1.0.0');
    } finally {
      await updater.stop();
    }
  });

  it('a duplicate delivery changes nothing; a newer offer supersedes one still waiting', async () => {
    const { deviceNo, machine, updater, reports, states } = liftWithUpdater(server, signer);
    const pkg = server.addPackage();
    const next = server.addPackage();
    const now = Date.now();
    // installs only from two hours on (the lift waits for that, scaled: about 7 s)
    const window = {
      start: firmwareTime(new Date(now + 2 * 3_600_000)),
      end: firmwareTime(new Date(now + 4 * 3_600_000)),
    };
    try {
      const offer = signer.offer(pkg, { deviceNo }, { seq: 1, version: 'SIM-1.1.0', window });
      await updater.receive(offer);
      await waitUntil(() => reports.some((r) => r.state === 'deferred'));
      const deferred = reports.find((r) => r.state === 'deferred')!;
      expect(deferred.reason).toBe('outsideWindow');
      expect(Date.parse(deferred.retryAt!)).toBeGreaterThanOrEqual(Date.parse(window.start));
      // QoS 1 delivers the same offer again: the lift repeats where it is
      const before = reports.length;
      await updater.receive(offer);
      expect(reports.length).toBe(before + 1);
      expect(reports.at(-1)).toMatchObject({
        offerSeq: 1,
        state: 'deferred',
        reason: 'outsideWindow',
      });
      // a newer offer without a window replaces it and installs at once
      await updater.receive(signer.offer(next, { deviceNo }, { seq: 2, version: 'SIM-1.2.0' }));
      expect(folded(states(1)).at(-1)).toBe('failed');
      expect(reports.filter((r) => r.offerSeq === 1).at(-1)?.reason).toBe('superseded');
      await updater.settled();
      expect(folded(states(2)).at(-1)).toBe('done');
      expect(machine.firmware).toBe('SIM-1.2.0');
      expect(pkg.requests()).toHaveLength(1);
    } finally {
      await updater.stop();
    }
  });

  it('waits while a load is on the platform (deferred loaded)', async () => {
    const { deviceNo, machine, updater, reports, last } = liftWithUpdater(server, signer);
    const pkg = server.addPackage();
    try {
      machine.setLoad(80);
      await updater.receive(signer.offer(pkg, { deviceNo }, { seq: 3, version: 'SIM-1.1.0' }));
      await waitUntil(() => reports.filter((r) => r.state === 'deferred').length >= 2);
      expect(
        reports.filter((r) => r.state === 'deferred').every((r) => r.reason === 'loaded'),
      ).toBe(true);
      expect(machine.firmware).toBe('SIM-1.0.0');
      machine.setLoad(0);
      await updater.settled();
      expect(last(3)).toMatchObject({ state: 'done', runningVersion: 'SIM-1.1.0' });
    } finally {
      await updater.stop();
    }
  });
});

async function waitUntil(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
