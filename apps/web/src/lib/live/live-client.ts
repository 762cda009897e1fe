import {
  LIVE_SUBSCRIBE_MAX,
  fleetStatusOf,
  type FleetLiveMessage,
  type LiftLiveMessage,
  type LiveClientMessage,
  type LiveServerMessage,
} from '@liftlink/protocol';

/** The part of a WebSocket the client uses (a fake one in tests). */
export interface LiveSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type LiveConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'unauthorized';
export type LiftListener = (message: LiftLiveMessage) => void;
export type FleetListener = (message: FleetLiveMessage) => void;

export interface LiveClientOptions {
  url: () => string;
  /** The access token, sent as the first message (the HttpOnly cookie may be missing). */
  token: () => string | null;
  createSocket?: (url: string) => LiveSocket;
  /** Waits between reconnect attempts; the last one repeats. */
  backoffMs?: readonly number[];
  /** How long an unused connection stays open (a tab switch should not reconnect). */
  idleCloseMs?: number;
}

const SOCKET_OPEN = 1;
/** Any other close (a lost network, 1012 from a server restarting) is answered by reconnecting. */
const UNAUTHORIZED_CLOSE = 4401;

interface Snapshot {
  presence?: Extract<LiftLiveMessage, { type: 'presence' }>;
  status?: Extract<LiftLiveMessage, { type: 'status' }>;
}

/**
 * One WebSocket to `/ws/live`, shared by every page. Pages subscribe to lifts or to the
 * fleet; the client connects while anyone listens, authenticates with the token, and
 * after a lost connection reconnects with back-off and subscribes again, asking with
 * `since` for the run-log entries it missed.
 */
export class LiveClient {
  private socket: LiveSocket | null = null;
  private authed = false;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private state: LiveConnectionState = 'idle';
  private readonly lifts = new Map<string, Set<LiftListener>>();
  private readonly fleet = new Set<FleetListener>();
  /** Told each time the server confirms the fleet subscription (first time and after a reconnect). */
  private readonly fleetSubscribed = new Set<() => void>();
  private readonly stateListeners = new Set<() => void>();
  /** Per lift, the newest run-log entry id seen: what a resubscription asks to replay after. */
  private readonly lastEventId = new Map<string, number>();
  /** Latest presence and status per subscribed lift, for listeners that join later. */
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly backoff: readonly number[];
  private readonly idleCloseMs: number;

  constructor(private readonly options: LiveClientOptions) {
    this.backoff = options.backoffMs ?? [1_000, 2_000, 4_000, 8_000, 15_000];
    this.idleCloseMs = options.idleCloseMs ?? 10_000;
  }

  getState(): LiveConnectionState {
    return this.state;
  }

  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Live messages of one lift. The first listener subscribes; the last one unsubscribes. */
  subscribeLift(liftId: string, listener: LiftListener): () => void {
    let listeners = this.lifts.get(liftId);
    if (!listeners) {
      listeners = new Set();
      this.lifts.set(liftId, listeners);
      listeners.add(listener);
      if (this.authed) this.sendSubscribe([liftId]);
    } else {
      listeners.add(listener);
      this.replay(liftId, listener);
    }
    this.ensureConnected();
    return () => {
      const current = this.lifts.get(liftId);
      if (!current?.delete(listener) || current.size > 0) return;
      this.lifts.delete(liftId);
      this.snapshots.delete(liftId);
      if (this.authed) this.send({ type: 'unsubscribe', liftIds: [liftId] });
      this.closeWhenIdle();
    };
  }

  /**
   * Presence, mode, floor and fault changes of every lift the user may see, and alerts.
   * `onSubscribed` runs each time the server confirms the subscription: a change stored
   * before that moment came without a message, so a page that read its data over HTTP
   * before it (on opening, or before a lost connection) reads it again then.
   */
  subscribeFleet(listener: FleetListener, onSubscribed?: () => void): () => void {
    const first = this.fleet.size === 0;
    this.fleet.add(listener);
    if (onSubscribed) this.fleetSubscribed.add(onSubscribed);
    if (first && this.authed) this.send({ type: 'subscribeFleet' });
    this.ensureConnected();
    return () => {
      this.fleet.delete(listener);
      if (onSubscribed) this.fleetSubscribed.delete(onSubscribed);
      // The server has no "unsubscribe fleet": an idle connection is closed instead.
      this.closeWhenIdle();
    };
  }

  /**
   * A page loaded the run log up to entry `id` over HTTP: ask the server to replay what
   * came after it, so nothing falls between the HTTP answer and the live stream.
   */
  catchUp(liftId: string, id: number): void {
    this.noteEventId(liftId, id);
    if (this.authed && this.lifts.has(liftId))
      this.send({ type: 'subscribe', liftIds: [liftId], since: { [liftId]: id } });
  }

  private noteEventId(liftId: string, id: number): void {
    if (id > (this.lastEventId.get(liftId) ?? -1)) this.lastEventId.set(liftId, id);
  }

  private setState(next: LiveConnectionState): void {
    if (this.state === next) return;
    this.state = next;
    for (const listener of this.stateListeners) listener();
  }

  private hasListeners(): boolean {
    return this.lifts.size > 0 || this.fleet.size > 0;
  }

  private ensureConnected(): void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (this.socket || this.reconnectTimer || this.state === 'unauthorized') return;
    this.connect();
  }

  private closeWhenIdle(): void {
    if (this.hasListeners() || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.hasListeners()) return;
      if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
      const socket = this.socket;
      this.dropSocket();
      socket?.close(1000, 'idle');
      this.setState('idle');
    }, this.idleCloseMs);
  }

  private connect(): void {
    const create =
      this.options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as LiveSocket);
    let socket: LiveSocket;
    try {
      socket = create(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.authed = false;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    socket.onopen = () => {
      const token = this.options.token();
      if (token) this.send({ type: 'auth', token });
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    socket.onerror = () => undefined;
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.dropSocket();
      if (event.code === UNAUTHORIZED_CLOSE) {
        this.setState('unauthorized');
        return;
      }
      if (this.hasListeners()) this.scheduleReconnect();
      else this.setState('idle');
    };
  }

  private dropSocket(): void {
    if (this.socket) {
      this.socket.onopen = null;
      this.socket.onmessage = null;
      this.socket.onclose = null;
    }
    this.socket = null;
    this.authed = false;
  }

  private scheduleReconnect(): void {
    const wait = this.backoff[Math.min(this.attempt, this.backoff.length - 1)] ?? 1_000;
    this.attempt += 1;
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.hasListeners()) this.connect();
      else this.setState('idle');
    }, wait);
  }

  private send(message: LiveClientMessage): void {
    if (this.socket?.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify(message));
  }

  /** In chunks of the most lift ids the server takes per message. */
  private sendSubscribe(liftIds: string[]): void {
    for (let i = 0; i < liftIds.length; i += LIVE_SUBSCRIBE_MAX) {
      const chunk = liftIds.slice(i, i + LIVE_SUBSCRIBE_MAX);
      const since: Record<string, number> = {};
      for (const id of chunk) {
        const last = this.lastEventId.get(id);
        if (last !== undefined) since[id] = last;
      }
      this.send({
        type: 'subscribe',
        liftIds: chunk,
        ...(Object.keys(since).length > 0 ? { since } : {}),
      });
    }
  }

  /** Connected and authenticated: (re)subscribe everything that has listeners. */
  private onReady(): void {
    if (this.authed) return;
    this.authed = true;
    this.attempt = 0;
    this.setState('open');
    if (this.lifts.size > 0) this.sendSubscribe([...this.lifts.keys()]);
    if (this.fleet.size > 0) this.send({ type: 'subscribeFleet' });
  }

  private replay(liftId: string, listener: LiftListener): void {
    const snapshot = this.snapshots.get(liftId);
    if (!snapshot) return;
    queueMicrotask(() => {
      if (!this.lifts.get(liftId)?.has(listener)) return;
      if (snapshot.presence) listener(snapshot.presence);
      if (snapshot.status) listener(snapshot.status);
    });
  }

  private toLift(message: LiftLiveMessage): void {
    for (const listener of [...(this.lifts.get(message.liftId) ?? [])]) listener(message);
  }

  private toFleet(message: FleetLiveMessage): void {
    for (const listener of [...this.fleet]) listener(message);
  }

  private receive(data: unknown): void {
    let message: LiveServerMessage;
    try {
      message = JSON.parse(String(data)) as LiveServerMessage;
    } catch {
      return;
    }
    switch (message.type) {
      case 'ready':
        this.onReady();
        return;
      case 'fleetSubscribed':
        for (const callback of [...this.fleetSubscribed]) callback();
        return;
      case 'error':
        if (message.code === 'auth.unauthorized' && !this.authed) this.setState('unauthorized');
        return;
      case 'presence': {
        const snapshot = this.snapshots.get(message.liftId);
        if (snapshot) snapshot.presence = message;
        else if (this.lifts.has(message.liftId))
          this.snapshots.set(message.liftId, { presence: message });
        this.toLift(message);
        this.toFleet(message);
        return;
      }
      case 'status': {
        const snapshot = this.snapshots.get(message.liftId) ?? {};
        // Snapshots may arrive out of order (replay after subscribe): the higher seq wins.
        if (snapshot.status && snapshot.status.seq > message.seq) return;
        if (this.lifts.has(message.liftId))
          this.snapshots.set(message.liftId, { ...snapshot, status: message });
        this.toLift(message);
        // A lift subscribed on its own gets full statuses instead of the fleet digest.
        this.toFleet(fleetStatusOf(message));
        return;
      }
      case 'event':
        this.noteEventId(message.liftId, message.id);
        this.toLift(message);
        return;
      case 'command':
      case 'config':
      case 'lease':
      case 'approval':
        this.toLift(message);
        return;
      // Incidents reach the lift's page and the fleet's lists (the incidents page).
      case 'incident':
        this.toLift(message);
        this.toFleet(message);
        return;
      // Fleet status, alerts, and the user's own incident notifications (escalation) for the bell.
      case 'fleetStatus':
      case 'alert':
      case 'notification':
        this.toFleet(message);
        return;
      default:
        return;
    }
  }
}
