import type { ConditionReason } from '@liftlink/protocol';
import { tx } from '../../lib/i18n/i18n.ts';

/**
 * A reason of the condition score in the user's language: its key names the text
 * (`condition.reason.<factor>.<state>`, in the condition text bundle), its parameters fill it.
 * A failed alarm self-test adds the parts that failed.
 */
export function reasonText(reason: ConditionReason): string {
  const text = tx(`condition.reason.${reason.key}`, reason.params);
  const failed = reason.params.failed;
  return typeof failed === 'string' && failed
    ? text + tx('condition.failedParts', { parts: failed })
    : text;
}

/** The colour of a score: green healthy, orange watch, red listed (CONDITION_PROPOSAL.scoreBelow). */
export function scoreColor(score: number): 'green' | 'orange' | 'red' {
  if (score >= 85) return 'green';
  return score >= 65 ? 'orange' : 'red';
}
