import { LOCAL_SETTLE_MS, needsLease, type Command, type CommandLease, type RefusalReason } from '@liftlink/protocol';

/**
 * The lift's own check of the control lease (docs/remote-control.md, docs/protocol.md 6.4 and 6.6):
 * the cloud decides first, but a lift that trusted it blindly would run a late command of a
 * holder who was taken over, or a command sent while someone stands at the lift. Only
 * commands of a leased class (`needsLease`) are checked; stopping and settings never are.
 *
 * Epochs are fencing tokens: every lease granted on the lift gets a higher one. The lift
 * keeps the highest it has seen; local use starts a settle time and forgets every lease
 * seen so far, so only a lease taken after the local use opens remote control again.
 * Kept in memory: after a power-on the lift has seen no epoch.
 */
export class ControlGate {
  /** The highest epoch the lift has seen in an admitted command (0: none). */
  private highestEpoch = 0;
  /** Epochs up to this one are of leases taken before the last local use: forgotten. */
  private forgottenUpTo = 0;
  private lastLocalUseAt: number | null = null;

  /** Someone used the lift on site at `now` (ms since the epoch). */
  localUse(now: number): void {
    this.lastLocalUseAt = now;
    this.forgottenUpTo = this.highestEpoch;
  }

  /** Until when remote leased commands are refused after the last local use, or null when they are not. */
  localControlUntil(now: number): number | null {
    if (this.lastLocalUseAt === null) return null;
    const until = this.lastLocalUseAt + LOCAL_SETTLE_MS;
    return now < until ? until : null;
  }

  /** The highest lease epoch seen (0: none yet). */
  get epoch(): number {
    return this.highestEpoch;
  }

  /**
   * Why `cmd` may not run under `lease`, or null when it may; an admitted command's epoch
   * becomes the highest seen (even if an interlock refuses it next: the lease was granted).
   */
  admit(cmd: Pick<Command, 'name' | 'args'>, lease: CommandLease | undefined, now: number): RefusalReason | null {
    if (!needsLease(cmd)) return null;
    if (this.localControlUntil(now) !== null) return 'localControl';
    if (lease && lease.epoch <= this.forgottenUpTo) return 'localControl';
    if (!lease) return 'noLease';
    if (lease.epoch < this.highestEpoch) return 'leaseHeld';
    this.highestEpoch = lease.epoch;
    return null;
  }
}
