import {
  ENCODER_COUNTS_PER_MM,
  FAULT_CODES,
  defaultConfig,
  liftCommandSchema,
  validateConfigChange,
  type AckState,
  type AgingTarget,
  type CmdMessage,
  type Command,
  type ConfigGetMessage,
  type ConfigIssue,
  type ConfigSetMessage,
  type Deformation,
  type DeviceKind,
  type EventCode,
  type FaultCode,
  type Floor,
  type LiftConfig,
  type LiftStatus,
  type RefusalReason,
  type TestItem,
} from '@liftlink/protocol';
import { AlarmDevice, type AlarmDeviceOptions } from './alarm-device.ts';
import { ControlGate } from './control-gate.ts';
import { CHATTER_MS, WEAR_LIMITS, Wear, type WearScenario, type WearSpec } from './wear.ts';

/**
 * One simulated lift as a pure state machine: no timers, no network. Time only moves when
 * `advance(ms)` is called, so tests drive it step by step and the MQTT side calls it from
 * one fleet clock. What the lift says (events, command answers, config reports) queues up
 * and is taken with `drain()`.
 */
export type LiftOutput =
  | { type: 'event'; code: EventCode; floor?: Floor }
  | { type: 'ack'; commandId: string; state: AckState; reason?: RefusalReason; issues?: ConfigIssue[] }
  | { type: 'configReport'; commandId?: string };

export interface LiftMachineOptions {
  deviceNo: string;
  kind: DeviceKind;
  floors: number;
  /** Wall-clock start, ms since the epoch. */
  now: number;
  config?: LiftConfig;
  configVersion?: number;
  startFloor?: number;
  /** Uniform random numbers in [0, 1); seed it for reproducible runs. */
  random?: () => number;
  /** Expected random faults per lift per hour (0: none). */
  faultRatePerHour?: number;
  /** Expected local calls (a passenger pressing a landing button) per lift per hour (0: none). */
  activityPerHour?: number;
  /** The emergency-alarm device's test schedule and battery (defaults: a test a day, the first a minute after power-on). */
  alarm?: Omit<AlarmDeviceOptions, 'now'>;
  /** A wear scenario (wear.ts): the lift ages in a known way, for the condition score. */
  wear?: WearSpec;
  /** The firmware version the lift runs (default SIM_FIRMWARE); an update over the air changes it. */
  firmware?: string;
}

/** The firmware version of a simulated lift unless its fleet entry names another. */
export const SIM_FIRMWARE = 'SIM-1.0.0';

/** Physics step: longer advances are cut into steps of this length. */
export const STEP_MS = 100;
/** Idle time after which the mode falls from normal to standby. */
export const STANDBY_AFTER_MS = 60_000;
/** A random fault clears itself after this long (a technician resetting it); injected faults stay. */
export const RANDOM_FAULT_CLEARS_MS = 60_000;
/** Lengths of the actuator strokes, mm: pedal, guardrail, flap. */
const PEDAL_STROKE_MM = 150;
const GUARDRAIL_STROKE_MM = 120;
const FLAP_STROKE_MM = 100;
/** Distance from a parking point that still counts as standing at the floor / at a charging node, counts. */
const AT_FLOOR_COUNTS = 50;
const AT_NODE_COUNTS = 300;
const CHARGER_VOLTS = 27.6;
const CHARGE_DETECT_VOLTS = 24;
const LOW_BATTERY_SOC = 0.05;
const REMEMBERED_COMMANDS = 1_000;
const TEST_MS: Record<TestItem, number> = {
  communications: 2_000,
  pedalLock: 3_000,
  runningLights: 3_000,
  keyLights: 3_000,
  positionLearning: 8_000,
  upDownDetection: 4_000,
  channelConfig: 2_000,
};

/** The deformation each RZB/RZF number stands for. */
const SHAPE_OF: Record<1 | 2 | 3 | 4 | 5, Deformation> = { 1: 'folded', 2: 'unfolding', 3: 'waitingLeft', 4: 'waitingRight', 5: 'doubleUp' };
type ShapeNo = keyof typeof SHAPE_OF;
const DEFORM_SHAPE_NO = { fold: 1, unfold: 2, leftFlap: 3, rightFlap: 4 } as const;
/** Forms the platform may travel in; from any other it first raises both guardrails (RZB5). */
const TRAVEL_FORMS: readonly Deformation[] = ['folded', 'doubleUp'];

/**
 * Someone uses the lift on site (docs/remote-control.md, "Local controls win"): a floor call
 * on a landing or on the platform (RZM{floor}; the lift travels as for any local call), a
 * button on the platform (RZLB), the keypad (RZLK), or maintenance mode entered at the
 * controller (RZLM).
 */
export type LocalUse =
  | { kind: 'floorCall'; floor: number; from?: 'landing' | 'platform' }
  | { kind: 'platformButton' }
  | { kind: 'keypad' }
  | { kind: 'maintenanceMode' };

interface Trip {
  target: Floor;
  targetPos: number;
  startPos: number;
  direction: 1 | -1;
  /** The command to answer `done` on arrival (summon or restart). */
  commandId?: string;
  /** The pause command to answer `done` once the platform stands. */
  pauseCommandId?: string;
  source: 'cloud' | 'local' | 'aging';
  moving: boolean;
  stopping: boolean;
}

interface DeformJob {
  shape: ShapeNo;
  remainingMs: number;
  commandId?: string;
  then?: () => void;
}

interface TestJob {
  item: TestItem;
  elapsedMs: number;
  startPos: number;
  commandId: string;
}

interface Answer {
  state: AckState;
  reason?: RefusalReason;
  issues?: ConfigIssue[];
}

export class LiftMachine {
  readonly deviceNo: string;
  readonly kind: DeviceKind;
  readonly floors: number;
  now: number;
  config: LiftConfig;
  configVersion: number;
  /** The running firmware version (presence carries it); a firmware update changes it (firmware-updater.ts). */
  firmware: string;
  /** A firmware update is installing or restarting (docs/protocol.md 11.6): the lift refuses movement (`busy`). */
  firmwareInstalling = false;

  private readonly random: () => number;
  private readonly faultRatePerHour: number;
  private readonly activityPerHour: number;
  private outputs: LiftOutput[] = [];
  private readonly answers = new Map<string, Answer>();
  private readonly gate = new ControlGate();

  private position: number;
  private speed = 0; // mm/s, always >= 0
  private trip: Trip | null = null;
  private paused: Trip | null = null;
  private deformation: Deformation = 'folded';
  private deformJob: DeformJob | null = null;
  private aging: { target: AgingTarget; cycles: number } | null = null;
  private test: TestJob | null = null;
  private locked = false;
  private disabled = false;
  private readonly faults = new Map<FaultCode, number | null>(); // code -> auto-clear time
  private soc = 0.9;
  private rawLoad = 0;
  private idleMs = 0;
  private readonly inputs = { emergencyStop: false, emergencyMode: false, alarmButton: false, help: false, flapNotInPlace: false };
  /** The emergency-alarm device (EN 81-28): its self-tests and battery, on the lift's clock. */
  readonly alarm: AlarmDevice;
  /** The lift's wear scenario, or null for a lift that does not wear. */
  readonly wear: Wear | null;
  private flapChatterUntil: number | null = null;

  constructor(options: LiftMachineOptions) {
    this.deviceNo = options.deviceNo;
    this.kind = options.kind;
    this.floors = options.floors;
    this.now = options.now;
    this.random = options.random ?? Math.random;
    this.faultRatePerHour = options.faultRatePerHour ?? 0;
    this.activityPerHour = options.activityPerHour ?? 0;
    this.config = options.config ?? defaultConfig(options.kind, options.floors);
    this.configVersion = options.configVersion ?? 0;
    this.firmware = options.firmware ?? SIM_FIRMWARE;
    this.position = this.parkingPos(this.clampFloor(options.startFloor ?? 1));
    this.idleMs = STANDBY_AFTER_MS;
    this.alarm = new AlarmDevice({ ...options.alarm, now: options.now });
    this.wear = options.wear ? new Wear(options.wear, options.now) : null;
    this.emit('RZOP');
  }

  // ---------------------------------------------------------------- outputs

  /** Takes what the lift said since the last call. */
  drain(): LiftOutput[] {
    const out = this.outputs;
    this.outputs = [];
    return out;
  }

  private emit(code: EventCode): void {
    const floor = this.currentFloor();
    this.outputs.push(floor === null ? { type: 'event', code } : { type: 'event', code, floor });
  }

  private answer(commandId: string, state: AckState, reason?: RefusalReason, issues?: ConfigIssue[]): void {
    const a: Answer = { state, ...(reason ? { reason } : {}), ...(issues?.length ? { issues } : {}) };
    this.answers.delete(commandId);
    this.answers.set(commandId, a);
    if (this.answers.size > REMEMBERED_COMMANDS) this.answers.delete(this.answers.keys().next().value!);
    this.outputs.push({ type: 'ack', commandId, ...a });
  }

  private refuse(commandId: string, reason: RefusalReason, issues?: ConfigIssue[]): void {
    this.answer(commandId, 'rejected', reason, issues);
  }

  /** Accepts a command; with `done` it also finishes at once. */
  private accept(commandId: string, done = false): void {
    this.answer(commandId, 'accepted');
    if (done) this.answer(commandId, 'done');
  }

  // ---------------------------------------------------------------- derived state

  private num(key: string): number {
    return this.config[key] as number;
  }

  private flag(key: string): boolean {
    return this.config[key] === true;
  }

  private clampFloor(floor: number): Floor {
    return Math.min(Math.max(1, Math.round(floor)), this.floors) as Floor;
  }

  /** Where the platform stops for a floor: memory value plus relative value. */
  parkingPos(floor: number): number {
    return this.num(`parkingMemory${floor}`) + this.num(`parkingRelative${floor}`);
  }

  currentFloor(): Floor | null {
    if (this.speed > 0) return null;
    for (let f = 1; f <= this.floors; f++) if (Math.abs(this.position - this.parkingPos(f)) <= AT_FLOOR_COUNTS) return f as Floor;
    return null;
  }

  get moving(): boolean {
    return this.speed > 0 || this.trip?.moving === true || this.testMoves();
  }

  private testMoves(): boolean {
    return this.test !== null && (this.test.item === 'positionLearning' || this.test.item === 'upDownDetection');
  }

  private get loadValue(): number {
    return Math.round((this.rawLoad - this.num('tareValue')) * 10) / 10;
  }

  private get overloaded(): boolean {
    return this.flag('overloadDetection') && this.loadValue > this.num('ratedLoad');
  }

  private get emergency(): boolean {
    return this.inputs.emergencyStop || this.inputs.emergencyMode;
  }

  private hasPart(key: string): boolean {
    return this.config[key] !== 'absent';
  }

  private chargingNode(): 'top' | 'bottom' | null {
    if (this.speed > 0) return null;
    if (Math.abs(this.position - this.parkingPos(1)) <= AT_NODE_COUNTS) return 'bottom';
    if (this.floors > 1 && Math.abs(this.position - this.parkingPos(this.floors)) <= AT_NODE_COUNTS) return 'top';
    return null;
  }

  private chargeValue(): { real: number; check: number } {
    const real = this.chargingNode() ? CHARGER_VOLTS : 0;
    const aged = 1 - WEAR_LIMITS.checkValueLoss * this.worn('batteryAgeing');
    return { real, check: Math.round(real * this.num('chargeRatio') * aged) / 100 };
  }

  private get charging(): boolean {
    if (!this.chargingNode()) return false;
    if (this.flag('chargeDetection') && this.chargeValue().check < CHARGE_DETECT_VOLTS) return false;
    return !(this.flag('smartCharging') && this.soc >= 0.99);
  }

  private voltage(): number {
    const ocv = 23 + 2.6 * this.soc;
    let v = ocv;
    if (this.charging) v = Math.min(CHARGER_VOLTS, ocv + 1.5);
    else if (this.speed > 0) v = ocv - 0.8 - 0.6 * Math.max(0, this.loadValue) / this.num('ratedLoad') - WEAR_LIMITS.extraSagVolts * this.worn('batteryAgeing');
    return Math.round(v * 100) / 100;
  }

  /** How worn the lift is in `scenario` now: 0 new .. 1 fully worn. */
  worn(scenario: WearScenario): number {
    return this.wear?.severity(scenario, this.now) ?? 0;
  }

  private busy(): boolean {
    return this.firmwareInstalling || this.trip !== null || this.deformJob !== null || this.aging !== null || this.test !== null || this.speed > 0;
  }

  /**
   * The interlocks, in order of precedence. A cloud command is also refused when app
   * control is switched off; a local call when the call buttons are.
   */
  private movementBlock(source: 'cloud' | 'local', ignoreBusy = false): RefusalReason | null {
    if (source === 'cloud' && !this.flag('appControlEnable')) return 'controlDisabled';
    if (this.emergency) return 'emergencyStop';
    if (this.disabled) return 'disabled';
    if (this.locked) return 'lockout';
    if (this.faults.size > 0) return 'fault';
    if (this.overloaded) return 'overloaded';
    if (this.inputs.flapNotInPlace) return 'flapNotInPlace';
    if (this.soc < LOW_BATTERY_SOC) return 'lowBattery';
    if (this.test) return 'debugMode';
    if (!ignoreBusy && this.busy()) return 'busy';
    return null;
  }

  private mode(): LiftStatus['mode'] {
    if (this.emergency) return 'emergency';
    if (this.disabled) return 'disabled';
    if (this.locked) return 'lockout';
    if (this.test) return 'debug';
    return this.idleMs >= STANDBY_AFTER_MS ? 'standby' : 'normal';
  }

  // ---------------------------------------------------------------- status

  status(): LiftStatus {
    const floor = this.currentFloor();
    const node = this.chargingNode();
    const d = this.deformation;
    const flapMoving = (side: 3 | 4) => this.deformJob !== null && (this.deformJob.shape === side || this.deformJob.shape === 1);
    const flapDown = (form: Deformation) => d === form || d === 'fullyOpen';
    const movement: LiftStatus['platform']['movement'] =
      this.testMoves() && this.speed > 0 ? 'run' : this.trip?.moving ? (this.trip.direction > 0 ? 'rise' : 'fall') : 'stop';
    const target = this.trip?.target ?? this.paused?.target ?? null;
    return {
      mode: this.mode(),
      floor,
      targetFloor: target,
      paused: this.paused !== null,
      aging: this.aging ? { ...this.aging } : null,
      faults: FAULT_CODES.filter((c) => this.faults.has(c)),
      platform: {
        voltage: this.voltage(),
        deformation: d,
        chargeValue: this.chargeValue(),
        charging: this.charging,
        movement,
        helpSignal: this.inputs.help,
        loadValue: this.loadValue,
        overloaded: this.overloaded,
        position: Math.round(this.position),
      },
      platformIo: {
        leftFlapUpperLimit: !flapMoving(3) && !flapDown('waitingLeft'),
        leftFlapLowerLimit: !flapMoving(3) && flapDown('waitingLeft'),
        rightFlapUpperLimit: !flapMoving(4) && !flapDown('waitingRight'),
        rightFlapLowerLimit: !flapMoving(4) && flapDown('waitingRight'),
        pedalAntiCollision: this.faults.has('EE'),
        flapNotInPlace: this.inputs.flapNotInPlace,
        floor1InPlace: floor === 1,
        floor2InPlace: floor === 2,
        pedalLock: d === 'folded' && this.deformJob === null,
        multiFunction: [false, false, false, false],
      },
      housing: {
        chain: 'normal',
        commNodeOnline: !this.faults.has('ED'),
        chargingNodes: { top: node === 'top', bottom: node === 'bottom' },
        slaveNodes: { summoning: this.trip?.source === 'local', actuatorMotor: this.deformJob !== null },
        io: {
          emergencyStop: this.inputs.emergencyStop,
          alarmButton: this.inputs.alarmButton,
          emergencyMode: this.inputs.emergencyMode,
          lockoutMode: this.locked,
          extremeTop: this.faults.has('EA'),
          extremeBottom: this.faults.has('EB'),
          driveRunning: this.speed > 0,
          driveFailed: this.faults.has('EC'),
          remoteButtons: { b1: false, b2: false, b3: false, b4: false, b5: false },
          jogUp: false,
          jogDown: false,
          configButtons: { menu: false, up: false, down: false, confirm: false },
        },
      },
    };
  }

  /** The status without its continuously changing values: a change here is worth a snapshot at once. */
  statusKey(): string {
    const s = this.status();
    const { voltage: _v, chargeValue: _c, loadValue: _l, position: _p, ...platform } = s.platform;
    return JSON.stringify({ ...s, platform, aging: s.aging?.target ?? null, overloaded: s.platform.overloaded });
  }

  // ---------------------------------------------------------------- commands

  /** A `cmd` message from the cloud. */
  handleCommand(msg: CmdMessage): void {
    if (this.repeatAnswer(msg.commandId)) return;
    if (Date.parse(msg.expiresAt) <= this.now) return this.refuse(msg.commandId, 'expired');
    const parsed = liftCommandSchema(this.floors).safeParse({ name: msg.name, args: msg.args });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message.startsWith('validation.') ? i.message : 'validation.invalid' }));
      return this.refuse(msg.commandId, 'badArgs', issues);
    }
    // who may command (the lease) before what the lift can do now (the interlocks)
    const notAdmitted = this.gate.admit(parsed.data, msg.lease, this.now);
    if (notAdmitted) return this.refuse(msg.commandId, notAdmitted);
    this.execute(msg.commandId, parsed.data);
  }

  /** Until when remote leased commands are refused after local use (ms since the epoch), or null. */
  get localControlUntil(): number | null {
    return this.gate.localControlUntil(this.now);
  }

  /** The highest control-lease epoch the lift has seen (0: none). */
  get leaseEpoch(): number {
    return this.gate.epoch;
  }

  /** A duplicate id is answered again with its stored result, never executed twice. */
  private repeatAnswer(commandId: string): boolean {
    const known = this.answers.get(commandId);
    if (!known) return false;
    this.outputs.push({ type: 'ack', commandId, ...known });
    return true;
  }

  private execute(id: string, cmd: Command): void {
    switch (cmd.name) {
      case 'summon':
        return this.summon(id, cmd.args.floor);
      case 'pause':
        return this.pause(id);
      case 'restart':
        return this.restart(id);
      case 'deform':
        return this.deformCommand(id, DEFORM_SHAPE_NO[cmd.args.shape]);
      case 'aging':
        return cmd.args.target === 'stop' ? this.stopAging(id) : this.startAging(id, cmd.args.target);
      case 'test':
        return this.startTest(id, cmd.args.item);
      case 'lock':
        return this.setMode(id, 'locked', cmd.args.on, cmd.args.on ? 'RZOS' : 'RZOs');
      case 'disable':
        return this.setMode(id, 'disabled', cmd.args.on, cmd.args.on ? 'RZOJ' : 'RZOj');
    }
  }

  private summon(id: string, floor: Floor): void {
    const block = this.movementBlock('cloud');
    if (block) return this.refuse(id, block);
    this.paused = null;
    this.accept(id);
    this.emit(`RZY${floor}`);
    this.startTrip(floor, 'cloud', id);
  }

  private pause(id: string): void {
    this.aging = null;
    const trip = this.trip;
    if (trip && !trip.moving) {
      // still raising the guardrails before the start: the trip is called off
      this.trip = null;
      if (trip.commandId) this.answer(trip.commandId, 'failed', 'interrupted');
    }
    if (!trip?.moving) return this.accept(id, true);
    trip.stopping = true;
    trip.pauseCommandId = id;
    this.accept(id);
  }

  private restart(id: string): void {
    if (this.paused) {
      const block = this.movementBlock('cloud');
      if (block) return this.refuse(id, block);
      const { target, source } = this.paused;
      this.paused = null;
      this.accept(id);
      return this.startTrip(target, source === 'aging' ? 'cloud' : source, id);
    }
    if (this.busy()) return this.refuse(id, 'busy');
    // nothing to resume: reset the controller, which clears the latched faults (EF needs a configuration)
    for (const code of [...this.faults.keys()]) if (code !== 'EF') this.faults.delete(code);
    this.accept(id, true);
    this.emit('RZOP');
  }

  private deformCommand(id: string, shape: ShapeNo): void {
    const block = this.movementBlock('cloud');
    if (block) return this.refuse(id, block);
    if (!this.supportsShape(shape)) return this.refuse(id, 'unsupported');
    if (this.deformation === SHAPE_OF[shape]) return this.accept(id, true);
    this.accept(id);
    this.startDeform(shape, id);
  }

  private supportsShape(shape: ShapeNo): boolean {
    if (shape === 3) return this.hasPart('leftFlapSystem');
    if (shape === 4) return this.hasPart('rightFlapSystem');
    if (shape === 5) return this.hasPart('leftGuardrailSystem') || this.hasPart('rightGuardrailSystem');
    return this.hasPart('mainPedalSystem');
  }

  private startAging(id: string, target: AgingTarget): void {
    const block = this.movementBlock('cloud');
    if (block) return this.refuse(id, block);
    const shapes = this.agingShapes(target);
    if (shapes && !shapes.every((s) => this.supportsShape(s))) return this.refuse(id, 'unsupported');
    this.aging = { target, cycles: 0 };
    this.accept(id, true); // done = the loop runs; the status shows its progress
  }

  private stopAging(id: string): void {
    this.aging = null;
    this.accept(id, true);
  }

  private startTest(id: string, item: TestItem): void {
    const moves = item === 'positionLearning' || item === 'upDownDetection';
    const block = moves ? this.movementBlock('cloud') : this.emergency ? 'emergencyStop' : this.disabled ? 'disabled' : this.busy() ? 'busy' : null;
    if (block) return this.refuse(id, block);
    this.test = { item, elapsedMs: 0, startPos: this.position, commandId: id };
    this.accept(id);
    this.emit('RZOT');
  }

  private setMode(id: string, which: 'locked' | 'disabled', on: boolean, code: EventCode): void {
    if (this.moving || this.trip) return this.refuse(id, 'busy');
    const changed = this[which] !== on;
    this[which] = on;
    if (on) this.aging = null;
    this.accept(id, true);
    if (changed) this.emit(code);
  }

  // ---------------------------------------------------------------- configuration

  handleConfigSet(msg: ConfigSetMessage): void {
    if (this.repeatAnswer(msg.commandId)) return;
    if (Date.parse(msg.expiresAt) <= this.now) return this.refuse(msg.commandId, 'expired');
    if (this.busy()) return this.refuse(msg.commandId, 'busy');
    if (msg.version !== this.configVersion) return this.refuse(msg.commandId, 'versionConflict');
    const issues = validateConfigChange(this.configVersion > 0 ? this.config : null, msg.config, this.floors);
    if (issues.length > 0) return this.refuse(msg.commandId, 'configInvalid', issues.slice(0, 50));
    this.config = { ...msg.config };
    this.configVersion += 1;
    this.faults.delete('EF');
    this.accept(msg.commandId, true);
    this.outputs.push({ type: 'configReport', commandId: msg.commandId });
  }

  handleConfigGet(msg: ConfigGetMessage): void {
    if (this.repeatAnswer(msg.commandId)) return;
    this.accept(msg.commandId, true);
    this.outputs.push({ type: 'configReport', commandId: msg.commandId });
  }

  // ---------------------------------------------------------------- local inputs (tests, fault injection, demo)

  /**
   * Someone uses the lift on site: the lift logs it, refuses remote leased commands for
   * LOCAL_SETTLE_MS and forgets every lease it has seen. Returns false when the lift ignores
   * it (a floor call it does not take is no local use: nothing happens, nothing is logged).
   */
  useLocally(use: LocalUse): boolean {
    switch (use.kind) {
      case 'floorCall':
        return this.callLocal(use.floor);
      case 'platformButton':
        return this.localEvent('RZLB');
      case 'keypad':
        return this.localEvent('RZLK');
      case 'maintenanceMode':
        // the simulator models the maintenance menu by its event only: no test runs
        return this.localEvent('RZLM');
    }
  }

  private localEvent(code: EventCode): true {
    this.emit(code);
    this.gate.localUse(this.now);
    return true;
  }

  /** A passenger presses a call button on a landing or the platform (RZM): local use. Returns false when the lift ignores it. */
  callLocal(floor: number): boolean {
    if (!this.flag('callButtonEnable') || floor < 1 || floor > this.floors || this.movementBlock('local')) return false;
    const f = floor as Floor;
    this.paused = null;
    this.localEvent(`RZM${f}`);
    this.startTrip(f, 'local');
    return true;
  }

  /** The controller has restarted (after a firmware update): it logs power-on (RZOP). */
  rebooted(): void {
    this.emit('RZOP');
  }

  setLoad(kg: number): void {
    this.rawLoad = kg;
  }

  setHelp(on: boolean): void {
    this.inputs.help = on;
    this.inputs.alarmButton = on;
  }

  setFlapNotInPlace(on: boolean): void {
    this.inputs.flapNotInPlace = on;
  }

  setEmergencyMode(on: boolean): void {
    this.inputs.emergencyMode = on;
    if (on) this.haltAll('emergencyStop');
  }

  setEmergencyStop(on: boolean): void {
    this.inputs.emergencyStop = on;
    if (on) this.haltAll('emergencyStop');
  }

  /** Sets a fault (EA..EF): the event is logged, anything moving stops, and the fault stays until cleared. */
  injectFault(code: FaultCode, clearsAt: number | null = null): void {
    const fresh = !this.faults.has(code);
    this.faults.set(code, clearsAt);
    if (fresh) this.emit(code);
    this.haltAll('fault');
    if (code === 'EF') {
      this.config = defaultConfig(this.kind, this.floors);
      this.configVersion = 0;
      this.outputs.push({ type: 'configReport' });
    }
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** Stops everything at once (emergency stop, fault): open commands fail with the reason. */
  private haltAll(reason: RefusalReason): void {
    const open = [this.trip?.commandId, this.trip?.pauseCommandId, this.deformJob?.commandId, this.test?.commandId];
    for (const id of open) if (id) this.answer(id, 'failed', reason);
    this.speed = 0;
    this.trip = null;
    this.paused = null;
    this.deformJob = null;
    this.test = null;
    this.aging = null;
  }

  // ---------------------------------------------------------------- trips and deformations

  private startTrip(target: Floor, source: Trip['source'], commandId?: string): void {
    const targetPos = this.parkingPos(target);
    const trip: Trip = {
      target,
      targetPos,
      startPos: this.position,
      direction: targetPos >= this.position ? 1 : -1,
      source,
      moving: false,
      stopping: false,
      ...(commandId ? { commandId } : {}),
    };
    this.trip = trip;
    this.idleMs = 0;
    const begin = () => this.beginMove(trip);
    if (!TRAVEL_FORMS.includes(this.deformation) && this.supportsShape(5)) this.startDeform(5, undefined, begin);
    else begin();
  }

  private beginMove(trip: Trip): void {
    if (this.trip !== trip) return;
    if (Math.abs(trip.targetPos - this.position) <= AT_FLOOR_COUNTS) return this.arrive(trip);
    trip.startPos = this.position;
    trip.direction = trip.targetPos >= this.position ? 1 : -1;
    trip.moving = true;
    this.emit(trip.direction > 0 ? 'RZGU' : 'RZGD');
  }

  private arrive(trip: Trip): void {
    this.position = trip.targetPos;
    this.speed = 0;
    this.trip = null;
    this.emit(`RZD${trip.target}`);
    if (trip.commandId) this.answer(trip.commandId, 'done');
    if (trip.source === 'aging') return this.countAgingTrip(trip.target);
    const pattern = this.config[`unfoldPattern${trip.target}`];
    const shape = ({ unfold: 2, waitLeft: 3, waitRight: 4, doubleUp: 5 } as Record<string, ShapeNo | undefined>)[String(pattern)];
    if (shape && this.supportsShape(shape) && this.deformation !== SHAPE_OF[shape]) this.startDeform(shape);
  }

  private startDeform(shape: ShapeNo, commandId?: string, then?: () => void): void {
    const speed = shape === 1 || shape === 2 ? this.num('pedalSpeed') : this.num('guardrailSpeed');
    const stroke = shape === 1 || shape === 2 ? PEDAL_STROKE_MM : shape === 5 ? GUARDRAIL_STROKE_MM : FLAP_STROKE_MM;
    this.deformJob = { shape, remainingMs: (stroke / speed) * 1000, ...(commandId ? { commandId } : {}), ...(then ? { then } : {}) };
    this.idleMs = 0;
    this.emit(`RZB${shape}`);
  }

  private stepDeform(job: DeformJob, dt: number): void {
    job.remainingMs -= dt;
    if (job.remainingMs > 0) return;
    this.deformJob = null;
    this.deformation = SHAPE_OF[job.shape];
    this.emit(`RZF${job.shape}`);
    if (job.commandId) this.answer(job.commandId, 'done');
    job.then?.();
  }

  private stepTrip(trip: Trip, dt: number): void {
    const countsPerMm = ENCODER_COUNTS_PER_MM;
    const remaining = Math.abs(trip.targetPos - this.position);
    const travelled = Math.abs(this.position - trip.startPos);
    let top = Math.min(this.num('rapidSpeed'), this.num('speedLimit'));
    if (this.flag('smartSpeed') && this.loadValue > 0.7 * this.num('ratedLoad')) top *= 0.8;
    // a stiff drive (worn rack, chain or hydraulics) runs slower at every speed
    const stiffness = 1 - WEAR_LIMITS.speedLoss * this.worn('stiffDrive');
    top *= stiffness;
    const slow = Math.min(this.num('slowSpeed') * stiffness, top);
    const inQuickSegment = travelled >= this.num('quickSegmentStart') && remaining > this.num('quickSegmentEnd');
    const accel = (top / this.num('startAccelMs')) * 1000;
    const decel = (top / this.num('stopDecelMs')) * 1000;
    // brake in time to be at slow speed where the quick segment ends
    const toSlowZoneMm = (remaining - this.num('quickSegmentEnd')) / countsPerMm;
    const braking = Math.sqrt(slow * slow + 2 * decel * Math.max(0, toSlowZoneMm));
    const wanted = trip.stopping ? 0 : inQuickSegment ? Math.min(top, braking) : slow;
    const s = dt / 1000;
    this.speed = this.speed < wanted ? Math.min(wanted, this.speed + accel * s) : Math.max(wanted, this.speed - decel * s);
    const step = this.speed * s * countsPerMm;
    if (!trip.stopping && step >= remaining) return this.arrive(trip);
    this.position += trip.direction * step;
    this.soc = Math.max(0, this.soc - s * (0.00005 + 0.00005 * Math.max(0, this.loadValue) / this.num('ratedLoad')));
    if (trip.stopping && this.speed === 0) {
      trip.moving = false;
      trip.stopping = false;
      this.trip = null;
      this.paused = trip;
      this.emit('RZGS');
      if (trip.commandId) this.answer(trip.commandId, 'failed', 'interrupted');
      if (trip.pauseCommandId) this.answer(trip.pauseCommandId, 'done');
      delete trip.commandId;
      delete trip.pauseCommandId;
    }
  }

  private stepTest(job: TestJob, dt: number): void {
    job.elapsedMs += dt;
    const total = TEST_MS[job.item];
    if (job.item === 'positionLearning' || job.item === 'upDownDetection') {
      // creep up for the first half, down for the second, ending where it began
      const half = total / 2;
      this.speed = job.elapsedMs < total ? this.num('slowSpeed') : 0;
      const dir = job.elapsedMs <= half ? 1 : -1;
      this.position += dir * this.speed * (dt / 1000) * ENCODER_COUNTS_PER_MM;
    }
    if (job.elapsedMs < total) return;
    this.position = job.startPos;
    this.speed = 0;
    this.test = null;
    this.answer(job.commandId, 'done');
  }

  private agingShapes(target: AgingTarget): [ShapeNo, ShapeNo] | null {
    if (target === 'pedals') return [2, 1];
    if (target === 'leftGuardrail') return [3, 1];
    if (target === 'rightGuardrail') return [4, 1];
    return null;
  }

  /** One step of the aging loop when the lift is idle: the next trip or deformation. */
  private stepAging(aging: { target: AgingTarget; cycles: number }): void {
    if (aging.cycles >= this.num('agingTimes')) {
      this.aging = null;
      return;
    }
    const shapes = this.agingShapes(aging.target);
    if (shapes) {
      const [out, back] = shapes;
      const next = this.deformation === SHAPE_OF[out] ? back : out;
      this.startDeform(next, undefined, () => {
        if (next === back && this.aging) this.aging.cycles += 1;
      });
      return;
    }
    if (this.floors === 1) {
      this.aging = null;
      return;
    }
    const here = this.currentFloor();
    this.startTrip(here === this.floors ? 1 : (this.floors as Floor), 'aging');
  }

  private countAgingTrip(arrivedAt: Floor): void {
    if (arrivedAt === 1 && this.aging) this.aging.cycles += 1;
  }

  // ---------------------------------------------------------------- time

  /** Lets `ms` of time pass. */
  advance(ms: number): void {
    let left = ms;
    while (left > 0) {
      const dt = Math.min(STEP_MS, left);
      this.step(dt);
      left -= dt;
    }
    this.alarm.advanceTo(this.now);
  }

  private step(dt: number): void {
    this.now += dt;
    for (const [code, clearsAt] of this.faults) if (clearsAt !== null && clearsAt <= this.now) this.faults.delete(code);
    if (this.deformJob) this.stepDeform(this.deformJob, dt);
    else if (this.trip?.moving) this.stepTrip(this.trip, dt);
    else if (this.test) this.stepTest(this.test, dt);
    else if (this.aging && !this.trip) this.stepAging(this.aging);
    if (this.charging) this.soc = Math.min(1, this.soc + ((dt / 1000) * 0.0002) / (1 + WEAR_LIMITS.chargeSlowdown * this.worn('batteryAgeing')));
    this.idleMs = this.busy() ? 0 : this.idleMs + dt;
    this.randomHappenings(dt);
  }

  /** A chattering flap sensor reports "flap not in place" for a moment while the lift stands (more often the more worn). */
  private chatterFlap(perStep: number): void {
    if (this.flapChatterUntil !== null && this.flapChatterUntil <= this.now) {
      this.flapChatterUntil = null;
      this.inputs.flapNotInPlace = false;
    }
    const rate = WEAR_LIMITS.chattersPerHour * this.worn('chatteringFlap');
    if (rate > 0 && this.flapChatterUntil === null && !this.inputs.flapNotInPlace && !this.busy() && this.random() < rate * perStep) {
      this.inputs.flapNotInPlace = true;
      this.flapChatterUntil = this.now + CHATTER_MS;
    }
  }

  private randomHappenings(dt: number): void {
    const perStep = dt / 3_600_000;
    this.chatterFlap(perStep);
    if (this.faultRatePerHour > 0 && this.random() < this.faultRatePerHour * perStep) {
      const code = FAULT_CODES[Math.floor(this.random() * FAULT_CODES.length)] ?? 'EC';
      this.injectFault(code, this.now + RANDOM_FAULT_CLEARS_MS);
    }
    if (this.activityPerHour > 0 && !this.busy() && this.floors > 1 && this.random() < this.activityPerHour * perStep) {
      const here = this.currentFloor() ?? 1;
      const others = Array.from({ length: this.floors }, (_, i) => i + 1).filter((f) => f !== here);
      const floor = others[Math.floor(this.random() * others.length)] ?? 1;
      this.setLoad(Math.round(this.random() * 120));
      this.callLocal(floor);
    }
  }
}
