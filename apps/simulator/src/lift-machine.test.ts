import { describe, expect, it } from 'vitest';
import { LOCAL_SETTLE_MS, defaultConfig, needsLease, type CmdMessage, type LiftConfig } from '@liftlink/protocol';
import { LiftMachine, type LiftMachineOptions, type LiftOutput } from './lift-machine.ts';
import { seededRandom } from './random.ts';

const T0 = Date.parse('2025-01-01T00:00:00Z');
let nextId = 0;

function lift(options: Partial<LiftMachineOptions> = {}) {
  const m = new LiftMachine({ deviceNo: 'SIM-0001', kind: 'inclinedStraightRack', floors: 2, now: T0, ...options });
  m.drain();
  return m;
}

/** The lease the operator of these tests holds; a command of a leased class carries it unless `extra` says otherwise. */
const LEASE = { epoch: 1, holder: 'Operator' };

function cmd(m: LiftMachine, name: CmdMessage['name'], args: Record<string, unknown> = {}, extra: Partial<CmdMessage> = {}): string {
  const commandId = extra.commandId ?? `c-${++nextId}`;
  const lease = needsLease({ name, args } as Parameters<typeof needsLease>[0]) ? { lease: LEASE } : {};
  m.handleCommand({ commandId, name, args, expiresAt: new Date(m.now + 15_000).toISOString(), ...lease, ...extra });
  return commandId;
}

/** Advances until `until` holds (checked every step), collecting everything the lift said. */
function runUntil(m: LiftMachine, until: (out: LiftOutput[]) => boolean, maxMs = 600_000): LiftOutput[] {
  const out: LiftOutput[] = [...m.drain()];
  for (let t = 0; t < maxMs && !until(out); t += 100) {
    m.advance(100);
    out.push(...m.drain());
  }
  return out;
}

/** Sends a command and returns the answers it got at once. */
const answers = (m: LiftMachine, name: CmdMessage['name'], args: Record<string, unknown> = {}) => {
  const id = cmd(m, name, args);
  return acks(m.drain(), id);
};
const codes = (out: LiftOutput[]) => out.flatMap((o) => (o.type === 'event' ? [o.code] : []));
const acks = (out: LiftOutput[], id: string) => out.flatMap((o) => (o.type === 'ack' && o.commandId === id ? [[o.state, o.reason].filter(Boolean).join(':')] : []));
const has = (code: string) => (out: LiftOutput[]) => codes(out).some((c) => c === code);

describe('LiftMachine', () => {
  it('announces power on when it starts', () => {
    const m = new LiftMachine({ deviceNo: 'SIM-0001', kind: 'verticalHydraulic', floors: 2, now: T0 });
    expect(codes(m.drain())).toEqual(['RZOP']);
    expect(m.status().floor).toBe(1);
  });

  it('summon floor 2: RZY2, RZGU, RZD2 in order, ending at the parking point, accepted then done', () => {
    const m = lift();
    const id = cmd(m, 'summon', { floor: 2 });
    const out = runUntil(m, has('RZD2'));
    expect(codes(out)).toEqual(['RZY2', 'RZGU', 'RZD2']);
    expect(acks(out, id)).toEqual(['accepted', 'done']);
    const s = m.status();
    expect(s.platform.position).toBe(m.parkingPos(2));
    expect(s.floor).toBe(2);
    expect(s.platform.movement).toBe('stop');
    expect(s.platformIo.floor2InPlace).toBe(true);
  });

  it('reports rising with no floor while travelling, and falls on the way back', () => {
    const m = lift();
    cmd(m, 'summon', { floor: 2 });
    m.advance(3_000);
    expect(m.status()).toMatchObject({ floor: null, targetFloor: 2, platform: { movement: 'rise' }, housing: { io: { driveRunning: true } } });
    runUntil(m, has('RZD2'));
    cmd(m, 'summon', { floor: 1 });
    const out = runUntil(m, has('RZD1'));
    expect(codes(out)).toEqual(['RZY1', 'RZGD', 'RZD1']);
  });

  it('accelerates and decelerates as configured: a slower ramp makes the trip longer', () => {
    const tripTime = (config: LiftConfig) => {
      const m = lift({ config });
      cmd(m, 'summon', { floor: 2 });
      const start = m.now;
      runUntil(m, has('RZD2'));
      return m.now - start;
    };
    const base = defaultConfig('inclinedStraightRack', 2);
    const quick = tripTime({ ...base, startAccelMs: 200, stopDecelMs: 200 });
    const gentle = tripTime({ ...base, startAccelMs: 10_000, stopDecelMs: 10_000 });
    expect(gentle).toBeGreaterThan(quick);
    const fast = tripTime({ ...base, rapidSpeed: 150 });
    const slow = tripTime({ ...base, rapidSpeed: 60 });
    expect(slow).toBeGreaterThan(fast);
  });

  it('summon to the floor it stands at arrives at once', () => {
    const m = lift();
    const id = cmd(m, 'summon', { floor: 1 });
    const out = m.drain();
    expect(codes(out)).toEqual(['RZY1', 'RZD1']);
    expect(acks(out, id)).toEqual(['accepted', 'done']);
  });

  it('refuses summon when overloaded, and takes it once the load is off', () => {
    const m = lift();
    m.setLoad(300);
    expect(m.status().platform.overloaded).toBe(true);
    const id = cmd(m, 'summon', { floor: 2 });
    expect(acks(m.drain(), id)).toEqual(['rejected:overloaded']);
    m.setLoad(80);
    const again = cmd(m, 'summon', { floor: 2 });
    expect(acks(m.drain(), again)).toEqual(['accepted']);
  });

  it('refuses an expired command without doing anything', () => {
    const m = lift();
    const id = cmd(m, 'summon', { floor: 2 }, { expiresAt: new Date(m.now - 1).toISOString() });
    const out = runUntil(m, () => false, 5_000);
    expect(acks(out, id)).toEqual(['rejected:expired']);
    expect(codes(out)).toEqual([]);
    expect(m.status().floor).toBe(1);
  });

  it('does not execute a duplicate command id twice but answers it again', () => {
    const m = lift();
    const id = cmd(m, 'summon', { floor: 2 });
    let out = runUntil(m, has('RZD2'));
    cmd(m, 'summon', { floor: 2 }, { commandId: id });
    cmd(m, 'summon', { floor: 1 }, { commandId: id });
    out = [...out, ...runUntil(m, () => false, 60_000)];
    expect(codes(out).filter((c) => c.startsWith('RZY'))).toEqual(['RZY2']);
    expect(acks(out, id)).toEqual(['accepted', 'done', 'done', 'done']);
    expect(m.status().floor).toBe(2);
  });

  it('refuses bad arguments, such as a floor the lift does not have', () => {
    const m = lift();
    const id = cmd(m, 'summon', { floor: 3 });
    const out = m.drain();
    expect(acks(out, id)).toEqual(['rejected:badArgs']);
    expect(out[0]).toMatchObject({ issues: [{ path: 'args.floor', message: 'validation.max' }] });
    expect(answers(m, 'deform', { shape: 'spin' })).toEqual(['rejected:badArgs']);
  });

  it('unfolds and folds with RZB then RZF, and answers done when the form is reached', () => {
    const m = lift();
    const unfold = cmd(m, 'deform', { shape: 'unfold' });
    let out = runUntil(m, has('RZF2'));
    expect(m.status().platform.deformation).toBe('unfolding');
    const fold = cmd(m, 'deform', { shape: 'fold' });
    out = [...out, ...runUntil(m, has('RZF1'))];
    expect(codes(out)).toEqual(['RZB2', 'RZF2', 'RZB1', 'RZF1']);
    expect(acks(out, unfold)).toEqual(['accepted', 'done']);
    expect(acks(out, fold)).toEqual(['accepted', 'done']);
    expect(m.status().platform.deformation).toBe('folded');
    expect(m.status().platformIo.pedalLock).toBe(true);
  });

  it('lowers a flap for boarding and raises both guardrails before it travels', () => {
    const m = lift();
    cmd(m, 'deform', { shape: 'leftFlap' });
    runUntil(m, has('RZF3'));
    expect(m.status().platformIo).toMatchObject({ leftFlapLowerLimit: true, leftFlapUpperLimit: false });
    cmd(m, 'summon', { floor: 2 });
    const out = runUntil(m, has('RZD2'));
    expect(codes(out)).toEqual(['RZY2', 'RZB5', 'RZF5', 'RZGU', 'RZD2']);
    expect(m.status().platform.deformation).toBe('doubleUp');
  });

  it('takes the unfolding pattern of the arrival floor', () => {
    const m = lift({ config: { ...defaultConfig('inclinedStraightRack', 2), unfoldPattern2: 'waitRight' } });
    cmd(m, 'summon', { floor: 2 });
    const out = runUntil(m, has('RZF4'));
    expect(codes(out)).toEqual(['RZY2', 'RZGU', 'RZD2', 'RZB4', 'RZF4']);
  });

  it('refuses deformations a vertical hydraulic lift does not have', () => {
    const m = lift({ kind: 'verticalHydraulic' });
    expect(answers(m, 'deform', { shape: 'leftFlap' })).toEqual(['rejected:unsupported']);
  });

  it('lets the battery voltage fall while moving and charges at the bottom node', () => {
    const m = lift();
    m.advance(1_000);
    const atBottom = m.status().platform;
    expect(atBottom.charging).toBe(true);
    expect(atBottom.chargeValue.real).toBeGreaterThan(0);
    expect(m.status().housing.chargingNodes.bottom).toBe(true);
    cmd(m, 'summon', { floor: 2 });
    m.advance(5_000);
    const moving = m.status().platform;
    expect(moving.charging).toBe(false);
    expect(moving.voltage).toBeLessThan(atBottom.voltage);
    m.advance(10_000);
    expect(m.status().platform.voltage).toBeLessThanOrEqual(moving.voltage);
  });

  it('refuses movement under each interlock with its reason', () => {
    const cases: [string, (m: LiftMachine) => void, string][] = [
      ['emergency stop', (m) => m.setEmergencyStop(true), 'emergencyStop'],
      ['emergency mode', (m) => m.setEmergencyMode(true), 'emergencyStop'],
      ['flap not in place', (m) => m.setFlapNotInPlace(true), 'flapNotInPlace'],
      ['fault', (m) => m.injectFault('ED'), 'fault'],
      ['lockout', (m) => void cmd(m, 'lock', { on: true }), 'lockout'],
      ['disabled', (m) => void cmd(m, 'disable', { on: true }), 'disabled'],
    ];
    for (const [label, arrange, reason] of cases) {
      const m = lift();
      arrange(m);
      m.drain();
      const summon = cmd(m, 'summon', { floor: 2 });
      expect(acks(m.drain(), summon), label).toEqual([`rejected:${reason}`]);
      expect(answers(m, 'deform', { shape: 'unfold' }), label).toEqual([`rejected:${reason}`]);
    }
  });

  it('logs lock and disable on and off and shows the mode', () => {
    const m = lift();
    cmd(m, 'lock', { on: true });
    expect(m.status().mode).toBe('lockout');
    expect(m.status().housing.io.lockoutMode).toBe(true);
    cmd(m, 'lock', { on: true }); // already locked: no second event
    cmd(m, 'lock', { on: false });
    cmd(m, 'disable', { on: true });
    expect(m.status().mode).toBe('disabled');
    cmd(m, 'disable', { on: false });
    expect(codes(m.drain())).toEqual(['RZOS', 'RZOs', 'RZOJ', 'RZOj']);
    m.setEmergencyStop(true);
    expect(m.status().mode).toBe('emergency');
  });

  it('falls to standby when idle and is normal while in use', () => {
    const m = lift();
    expect(m.status().mode).toBe('standby');
    cmd(m, 'summon', { floor: 2 });
    m.advance(1_000);
    expect(m.status().mode).toBe('normal');
    runUntil(m, has('RZD2'));
    m.advance(61_000);
    expect(m.status().mode).toBe('standby');
  });

  it('pauses a trip (RZGS), fails the summon as interrupted, and restart resumes it', () => {
    const m = lift();
    const summon = cmd(m, 'summon', { floor: 2 });
    m.advance(4_000);
    const pause = cmd(m, 'pause');
    let out = runUntil(m, has('RZGS'));
    expect(acks(out, pause)).toEqual(['accepted', 'done']);
    expect(acks(out, summon)).toEqual(['accepted', 'failed:interrupted']);
    expect(m.status()).toMatchObject({ paused: true, targetFloor: 2, floor: null, platform: { movement: 'stop' } });
    const restart = cmd(m, 'restart');
    out = runUntil(m, has('RZD2'));
    expect(codes(out)).toEqual(['RZGU', 'RZD2']);
    expect(acks(out, restart)).toEqual(['accepted', 'done']);
    expect(m.status().paused).toBe(false);
  });

  it('stops on a fault, fails the running command, and refuses movement until restart clears it', () => {
    const m = lift();
    const summon = cmd(m, 'summon', { floor: 2 });
    m.advance(3_000);
    m.drain();
    m.injectFault('EC');
    const out = m.drain();
    expect(codes(out)).toEqual(['EC']);
    expect(acks(out, summon)).toEqual(['failed:fault']);
    expect(m.status()).toMatchObject({ faults: ['EC'], platform: { movement: 'stop' }, housing: { io: { driveFailed: true } } });
    expect(answers(m, 'summon', { floor: 2 })).toEqual(['rejected:fault']);
    const restart = cmd(m, 'restart');
    const after = m.drain();
    expect(acks(after, restart)).toEqual(['accepted', 'done']);
    expect(codes(after)).toEqual(['RZOP']);
    expect(m.status().faults).toEqual([]);
  });

  it('loses its configuration on EF and reports the factory one', () => {
    const m = lift({ configVersion: 4 });
    m.injectFault('EF');
    const out = m.drain();
    expect(codes(out)).toEqual(['EF']);
    expect(out).toContainEqual({ type: 'configReport' });
    expect(m.configVersion).toBe(0);
  });

  it('raises random faults at the configured rate only', () => {
    const quiet = lift({ random: seededRandom(1) });
    quiet.advance(3_600_000);
    expect(codes(quiet.drain())).toEqual([]);
    const noisy = lift({ random: seededRandom(1), faultRatePerHour: 60 });
    noisy.advance(600_000);
    expect(codes(noisy.drain()).some((c) => /^E[A-F]$/.test(c))).toBe(true);
  });

  it('answers a local call with RZM and travels; ignores it when call buttons are off', () => {
    const m = lift();
    expect(m.callLocal(2)).toBe(true);
    expect(m.status().housing.slaveNodes.summoning).toBe(true);
    expect(codes(runUntil(m, has('RZD2')))).toEqual(['RZM2', 'RZGU', 'RZD2']);
    const off = lift({ config: { ...defaultConfig('inclinedStraightRack', 2), callButtonEnable: false } });
    expect(off.callLocal(2)).toBe(false);
  });

  it('refuses cloud commands when app control is off', () => {
    const m = lift({ config: { ...defaultConfig('inclinedStraightRack', 2), appControlEnable: false } });
    expect(answers(m, 'summon', { floor: 2 })).toEqual(['rejected:controlDisabled']);
  });

  it('runs an aging loop of pedal cycles and stops it on command', () => {
    const m = lift();
    const id = cmd(m, 'aging', { target: 'pedals' });
    expect(acks(m.drain(), id)).toEqual(['accepted', 'done']);
    const out = runUntil(m, () => (m.status().aging?.cycles ?? 0) >= 2);
    expect(codes(out).slice(0, 4)).toEqual(['RZB2', 'RZF2', 'RZB1', 'RZF1']);
    expect(answers(m, 'summon', { floor: 2 })).toEqual(['rejected:busy']);
    cmd(m, 'aging', { target: 'stop' });
    expect(m.status().aging).toBeNull();
  });

  it('ages the whole lift by travelling between the end floors', () => {
    const m = lift({ config: { ...defaultConfig('inclinedStraightRack', 2), agingTimes: 2 } });
    cmd(m, 'aging', { target: 'overall' });
    const out = runUntil(m, () => m.status().aging === null);
    expect(codes(out)).toEqual(['RZGU', 'RZD2', 'RZGD', 'RZD1', 'RZGU', 'RZD2', 'RZGD', 'RZD1']);
  });

  it('runs a test in debug mode (RZOT) and finishes it', () => {
    const m = lift();
    const id = cmd(m, 'test', { item: 'positionLearning' });
    expect(codes(m.drain())).toEqual(['RZOT']);
    m.advance(1_000);
    expect(m.status()).toMatchObject({ mode: 'debug', platform: { movement: 'run' } });
    expect(answers(m, 'summon', { floor: 2 })).toEqual(['rejected:debugMode']);
    const out = runUntil(m, (o) => acks(o, id).includes('done'));
    expect(acks(out, id)).toEqual(['done']);
    expect(m.status().mode).not.toBe('debug');
    expect(m.status().floor).toBe(1);
  });
});

describe('LiftMachine configuration', () => {
  it('applies a valid configuration, bumps the version and reports it', () => {
    const m = lift();
    const config = { ...m.config, rapidSpeed: 100 };
    m.handleConfigSet({ commandId: 'cfg-1', version: 0, config, expiresAt: new Date(m.now + 10_000).toISOString() });
    const out = m.drain();
    expect(acks(out, 'cfg-1')).toEqual(['accepted', 'done']);
    expect(out).toContainEqual({ type: 'configReport', commandId: 'cfg-1' });
    expect(m.configVersion).toBe(1);
    expect(m.config.rapidSpeed).toBe(100);
  });

  it('rejects an invalid configuration with its issues and keeps the old one', () => {
    const m = lift();
    m.handleConfigSet({ commandId: 'cfg-2', version: 0, config: { ...m.config, rapidSpeed: 999 }, expiresAt: new Date(m.now + 10_000).toISOString() });
    const out = m.drain();
    expect(out).toEqual([{ type: 'ack', commandId: 'cfg-2', state: 'rejected', reason: 'configInvalid', issues: [{ path: 'rapidSpeed', message: 'validation.max', params: { max: 150 } }] }]);
    expect(m.configVersion).toBe(0);
  });

  it('keeps parking-point edits of a configured lift within the tolerance', () => {
    const m = lift({ configVersion: 1 });
    const far = { ...m.config, parkingMemory2: (m.config.parkingMemory2 as number) - 600 };
    m.handleConfigSet({ commandId: 'cfg-3', version: 1, config: far, expiresAt: new Date(m.now + 10_000).toISOString() });
    expect(m.drain()[0]).toMatchObject({ state: 'rejected', reason: 'configInvalid', issues: [{ path: 'parkingMemory2', message: 'validation.positionRange' }] });
    const near = { ...m.config, parkingMemory2: (m.config.parkingMemory2 as number) - 400 };
    m.handleConfigSet({ commandId: 'cfg-4', version: 1, config: near, expiresAt: new Date(m.now + 10_000).toISOString() });
    expect(acks(m.drain(), 'cfg-4')).toEqual(['accepted', 'done']);
    expect(m.parkingPos(2)).toBe(near.parkingMemory2);
  });

  it('refuses a stale version, an expired set and a set while moving', () => {
    const m = lift({ configVersion: 2 });
    const exp = new Date(m.now + 10_000).toISOString();
    m.handleConfigSet({ commandId: 'cfg-5', version: 1, config: m.config, expiresAt: exp });
    m.handleConfigSet({ commandId: 'cfg-6', version: 2, config: m.config, expiresAt: new Date(m.now).toISOString() });
    cmd(m, 'summon', { floor: 2 });
    m.handleConfigSet({ commandId: 'cfg-7', version: 2, config: m.config, expiresAt: exp });
    const out = m.drain();
    expect(acks(out, 'cfg-5')).toEqual(['rejected:versionConflict']);
    expect(acks(out, 'cfg-6')).toEqual(['rejected:expired']);
    expect(acks(out, 'cfg-7')).toEqual(['rejected:busy']);
  });

  it('answers config/get with a report', () => {
    const m = lift();
    m.handleConfigGet({ commandId: 'get-1' });
    expect(m.drain()).toContainEqual({ type: 'configReport', commandId: 'get-1' });
  });
});

describe('LiftMachine remote control: the lease and local use', () => {
  /** Sends a command under the lease of `epoch` (null: without a lease) and returns its answers at once. */
  const under = (m: LiftMachine, epoch: number | null, name: CmdMessage['name'], args: Record<string, unknown> = {}) => {
    const id = cmd(m, name, args, { lease: epoch === null ? undefined : { epoch, holder: `Holder ${epoch}` } });
    return acks(m.drain(), id);
  };
  /** A summon to the floor the lift stands at: a leased command that ends at once. */
  const stay = (m: LiftMachine, epoch: number | null) => under(m, epoch, 'summon', { floor: 1 });

  it('runs a leased command only with a lease: without one every leased class is refused noLease and nothing moves', () => {
    const m = lift();
    const leased: [CmdMessage['name'], Record<string, unknown>][] = [
      ['summon', { floor: 2 }],
      ['restart', {}],
      ['deform', { shape: 'unfold' }],
      ['aging', { target: 'pedals' }],
      ['test', { item: 'positionLearning' }],
      ['test', { item: 'communications' }],
    ];
    for (const [name, args] of leased) expect(under(m, null, name, args), `${name} ${JSON.stringify(args)}`).toEqual(['rejected:noLease']);
    expect(codes(runUntil(m, () => false, 5_000))).toEqual([]);
    expect(m.status()).toMatchObject({ floor: 1, aging: null, platform: { deformation: 'folded' } });
    expect(under(m, 1, 'summon', { floor: 2 })).toEqual(['accepted']);
    runUntil(m, has('RZD2'));
    expect(m.status().floor).toBe(2);
  });

  it('refuses a command of an older lease (leaseHeld) once it has seen a newer one; the newer lease keeps working', () => {
    const m = lift();
    expect(stay(m, 3)).toEqual(['accepted', 'done']);
    expect(stay(m, 3)).toEqual(['accepted', 'done']);
    expect(stay(m, 4)).toEqual(['accepted', 'done']);
    expect(stay(m, 3)).toEqual(['rejected:leaseHeld']);
    expect(under(m, 3, 'summon', { floor: 2 })).toEqual(['rejected:leaseHeld']);
    expect(m.status().targetFloor).toBeNull();
    expect(stay(m, 4)).toEqual(['accepted', 'done']);
    expect(m.leaseEpoch).toBe(4);
  });

  it('checks the lease after the arguments and before the interlocks, and remembers an epoch an interlock refused', () => {
    const m = lift();
    expect(under(m, null, 'summon', { floor: 3 })).toEqual(['rejected:badArgs']);
    const expired = cmd(m, 'summon', { floor: 2 }, { lease: undefined, expiresAt: new Date(m.now - 1).toISOString() });
    expect(acks(m.drain(), expired)).toEqual(['rejected:expired']);
    m.setEmergencyStop(true);
    expect(under(m, null, 'summon', { floor: 2 })).toEqual(['rejected:noLease']);
    expect(under(m, 7, 'summon', { floor: 2 })).toEqual(['rejected:emergencyStop']);
    m.setEmergencyStop(false);
    expect(stay(m, 6)).toEqual(['rejected:leaseHeld']);
  });

  it('never refuses a stop or a setting for lease reasons: no lease, an old lease, during local use', () => {
    const m = lift();
    expect(stay(m, 5)).toEqual(['accepted', 'done']);
    const open = (epoch: number | null) => {
      expect(under(m, epoch, 'pause')).toEqual(['accepted', 'done']);
      expect(under(m, epoch, 'aging', { target: 'stop' })).toEqual(['accepted', 'done']);
      expect(under(m, epoch, 'lock', { on: true })).toEqual(['accepted', 'done']);
      expect(under(m, epoch, 'lock', { on: false })).toEqual(['accepted', 'done']);
      expect(under(m, epoch, 'disable', { on: true })).toEqual(['accepted', 'done']);
      expect(under(m, epoch, 'disable', { on: false })).toEqual(['accepted', 'done']);
    };
    open(null);
    open(2);
    m.useLocally({ kind: 'keypad' });
    open(null);
    open(5);
  });

  it('stops a trip of the holder without a lease: pause is open to anyone', () => {
    const m = lift();
    const summon = cmd(m, 'summon', { floor: 2 }, { lease: { epoch: 1, holder: 'Ann' } });
    m.advance(4_000);
    m.useLocally({ kind: 'platformButton' });
    const pause = cmd(m, 'pause', {}, { lease: undefined });
    const out = runUntil(m, has('RZGS'));
    expect(acks(out, pause)).toEqual(['accepted', 'done']);
    expect(acks(out, summon)).toEqual(['accepted', 'failed:interrupted']);
  });

  it('after local use refuses leased commands with localControl for the settle time, then only a lease taken after it runs', () => {
    const m = lift();
    expect(stay(m, 5)).toEqual(['accepted', 'done']);
    expect(m.localControlUntil).toBeNull();
    expect(m.useLocally({ kind: 'platformButton' })).toBe(true);
    expect(codes(m.drain())).toEqual(['RZLB']);
    expect(m.localControlUntil).toBe(m.now + LOCAL_SETTLE_MS);
    // during the settle time every leased command, whatever its lease
    expect(stay(m, 5)).toEqual(['rejected:localControl']);
    expect(stay(m, 6)).toEqual(['rejected:localControl']);
    expect(stay(m, null)).toEqual(['rejected:localControl']);
    // a second use restarts the settle time
    m.advance(LOCAL_SETTLE_MS / 2);
    m.useLocally({ kind: 'keypad' });
    m.advance(LOCAL_SETTLE_MS - 100);
    expect(under(m, 6, 'summon', { floor: 2 })).toEqual(['rejected:localControl']);
    expect(m.localControlUntil).toBe(m.now + 100);
    m.advance(100);
    expect(m.localControlUntil).toBeNull();
    // after it: the lease of before is forgotten, a command without one still needs one, a new lease runs
    expect(under(m, 5, 'summon', { floor: 2 })).toEqual(['rejected:localControl']);
    expect(under(m, null, 'summon', { floor: 2 })).toEqual(['rejected:noLease']);
    expect(under(m, 6, 'summon', { floor: 2 })).toEqual(['accepted']);
    runUntil(m, has('RZD2'));
    expect(m.status().floor).toBe(2);
    expect(under(m, 5, 'summon', { floor: 1 })).toEqual(['rejected:localControl']);
  });

  it('logs each kind of local use with its code and starts the settle time; a floor call also travels', () => {
    const uses: [Parameters<LiftMachine['useLocally']>[0], string[]][] = [
      [{ kind: 'floorCall', floor: 2, from: 'landing' }, ['RZM2', 'RZGU', 'RZD2']],
      [{ kind: 'floorCall', floor: 2, from: 'platform' }, ['RZM2', 'RZGU', 'RZD2']],
      [{ kind: 'platformButton' }, ['RZLB']],
      [{ kind: 'keypad' }, ['RZLK']],
      [{ kind: 'maintenanceMode' }, ['RZLM']],
    ];
    for (const [use, logged] of uses) {
      const m = lift();
      expect(stay(m, 1)).toEqual(['accepted', 'done']);
      expect(m.useLocally(use)).toBe(true);
      const said = m.drain();
      expect(stay(m, 1), use.kind).toEqual(['rejected:localControl']);
      expect(stay(m, 2), use.kind).toEqual(['rejected:localControl']);
      expect(codes([...said, ...runUntil(m, has(logged.at(-1)!))]), use.kind).toEqual(logged);
    }
  });

  it('counts a passenger call (callLocal, the random activity) as local use, but not a call the lift ignores', () => {
    const m = lift();
    expect(m.callLocal(2)).toBe(true);
    expect(codes(m.drain())).toEqual(['RZM2', 'RZGU']);
    expect(stay(m, 1)).toEqual(['rejected:localControl']);
    const off = lift({ config: { ...defaultConfig('inclinedStraightRack', 2), callButtonEnable: false } });
    expect(off.useLocally({ kind: 'floorCall', floor: 2 })).toBe(false);
    expect(codes(off.drain())).toEqual([]);
    expect(off.localControlUntil).toBeNull();
    expect(stay(off, 1)).toEqual(['accepted', 'done']);
  });
});
