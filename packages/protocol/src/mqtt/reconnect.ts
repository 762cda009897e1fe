/**
 * When a lift tries to connect again (docs/protocol.md, "Reconnecting"): exponential
 * backoff with full jitter, a cap, and the first try after a lost connection spread over a
 * window, so a fleet that loses its broker at one instant does not come back at one instant.
 * Pure: the caller brings the random source and the clock, and owns the timer.
 */
export interface ReconnectRule {
  /** Attempt n ≥ 1 waits random in [0, min(capMs, baseMs · 2^n)). */
  baseMs: number;
  /** The longest wait. */
  capMs: number;
  /** The first try after a lost connection (attempt 0) waits random in [0, firstTryWindowMs). */
  firstTryWindowMs: number;
  /** A connection that stayed up this long resets the attempts: the next loss starts at attempt 0 again. */
  stableMs: number;
  /** A try fails when the connection, the TLS handshake and the CONNACK have not all come within this time. */
  connectTimeoutMs: number;
}

/**
 * For a fleet of tens of thousands of lifts on one broker. The window: 50,000 lifts over
 * 10 s are 5,000 connections (TLS handshakes) a second and, with an online presence and a
 * status each, 10,000 messages a second, what the cloud ingests persistently; a lift is
 * back 5 s after a blip on average. The base is half the window, so no later try is
 * spread thinner than the first (attempt 1 is [0, 10 s) too): lifts that failed never
 * bunch up more tightly than they left. The cap keeps a lift that cannot reach the broker
 * at about two tries a minute. A connection is stable after 60 s (two keep-alive periods):
 * one that drops sooner (a crash-looping broker, two lifts with one device number taking
 * each other's session) keeps the backoff growing. A busy broker gets 30 s to answer a try:
 * a lift that gives up sooner only adds the same login again to a broker that is still
 * working on the first (a RabbitMQ cluster under a storm of 5,000 lifts never caught up
 * with a 10 s limit and had them all back in under three minutes with 30 s,
 * docs/operations.md 15.9); a node that is down refuses the TCP connection at once anyway.
 */
export const RECONNECT_RULE: Readonly<ReconnectRule> = Object.freeze({
  baseMs: 5_000,
  capMs: 60_000,
  firstTryWindowMs: 10_000,
  stableMs: 60_000,
  connectTimeoutMs: 30_000,
});

/**
 * CONNACK codes that refuse the lift itself (MQTT 3.1.1: 2 identifier rejected, 4 bad user
 * name or password, 5 not authorised; MQTT 5: 133, 134, 135): they do not fix themselves in
 * seconds, so the next try waits `refusedReconnectDelayMs`.
 */
export const REFUSED_CONNACK_CODES: readonly number[] = [2, 4, 5, 133, 134, 135];

function checkRandom(r: number): number {
  if (!(r >= 0 && r < 1)) throw new RangeError(`random() must return a number in [0, 1), got ${r}`);
  return r;
}

/** The upper bound (exclusive) of the wait before attempt `attempt` (0 = the first try after a lost connection). */
export function reconnectBoundMs(attempt: number, rule: Readonly<ReconnectRule> = RECONNECT_RULE): number {
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`attempt must be a whole number ≥ 0, got ${attempt}`);
  if (attempt === 0) return rule.firstTryWindowMs;
  // 2^attempt grows past any cap long before it overflows to Infinity, and min() takes the cap then
  return Math.min(rule.capMs, rule.baseMs * 2 ** attempt);
}

/** The wait in ms before attempt `attempt`: random in [0, reconnectBoundMs(attempt)); `random` returns [0, 1) like Math.random. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random, rule: Readonly<ReconnectRule> = RECONNECT_RULE): number {
  return Math.floor(checkRandom(random()) * reconnectBoundMs(attempt, rule));
}

/** The wait after the broker refused the lift (`REFUSED_CONNACK_CODES`): random in [capMs / 2, capMs). */
export function refusedReconnectDelayMs(random: () => number = Math.random, rule: Readonly<ReconnectRule> = RECONNECT_RULE): number {
  return Math.floor(rule.capMs / 2 + (checkRandom(random()) * rule.capMs) / 2);
}

/** The first attempt whose bound is the cap. */
function capAttempt(rule: Readonly<ReconnectRule>): number {
  let n = 1;
  while (reconnectBoundMs(n, rule) < rule.capMs) n += 1;
  return n;
}

/**
 * One lift's reconnect state: call `connected(now)` when a connection is accepted and
 * `nextDelayMs(now)` when a connection is lost or a try fails; wait that long, then try.
 */
export class ReconnectBackoff {
  private attempt = 0;
  private connectedAt: number | null = null;

  constructor(
    private readonly random: () => number = Math.random,
    readonly rule: Readonly<ReconnectRule> = RECONNECT_RULE,
  ) {}

  /** The attempt the next `nextDelayMs` waits for (0 = the first try after a lost connection). */
  get nextAttempt(): number {
    return this.attempt;
  }

  connected(nowMs: number): void {
    this.connectedAt = nowMs;
  }

  /** The wait before the next try; `refused`: the broker refused the lift (a code of `REFUSED_CONNACK_CODES`). */
  nextDelayMs(nowMs: number, refused = false): number {
    if (this.connectedAt !== null && nowMs - this.connectedAt >= this.rule.stableMs) this.attempt = 0;
    this.connectedAt = null;
    if (refused) {
      // refused: from here on every wait is drawn at the cap, until a connection is stable again
      this.attempt = Math.max(this.attempt + 1, capAttempt(this.rule));
      return refusedReconnectDelayMs(this.random, this.rule);
    }
    const delay = reconnectDelayMs(this.attempt, this.random, this.rule);
    this.attempt += 1;
    return delay;
  }
}
