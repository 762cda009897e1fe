import dayjs from 'dayjs';
import { refusalAdvice, refusalText } from '@liftlink/protocol';
import { translateError, tx } from '../../../lib/i18n/i18n.ts';
import type { CommandEntry } from './command-progress.ts';

/** A refusal on screen: why, and what to do next (docs/remote-control.md, "The reason on screen"). */
export interface RefusalView {
  text: string;
  advice: string | null;
}

type Refused = Pick<CommandEntry, 'reason' | 'reasonText' | 'errorCode' | 'detail'>;

/** The time of day a wait ends, as the refusal names it. */
export function clockTime(iso: string): string {
  return dayjs(iso).format('HH:mm:ss');
}

/**
 * The text of a refusal: the lease's holder and the end of local use where the answer names
 * them; else the reason in the current language (the server's text for a reason this
 * client does not know), else the API error. The advice comes from the protocol.
 */
export function refusalView(entry: Refused, language: string): RefusalView | null {
  const { reason, detail } = entry;
  const advice = reason ? refusalAdvice(reason, language) : null;
  if (reason === 'leaseHeld' && detail?.holderName)
    return { text: tx('control.refusal.heldBy', { name: detail.holderName }), advice };
  if (reason === 'localControl' && detail?.until)
    return { text: tx('control.refusal.localUntil', { time: clockTime(detail.until) }), advice };
  if (reason) {
    const text = refusalText(reason, language);
    return { text: text === reason && entry.reasonText ? entry.reasonText : text, advice };
  }
  if (entry.errorCode) return { text: translateError(entry.errorCode), advice: null };
  return null;
}
