import { SerialError, type ConfigIssue } from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { hasKey, translateIssue, tx } from '../../../lib/i18n/i18n.ts';
import { BridgeError } from '../serial/bridge-client.ts';

/** What went wrong, as the bench shows it: a text, and whether "refresh list" helps. */
export interface BenchProblem {
  text: string;
  /** Device does not match (spec): offer to refresh the handshake and the port list. */
  refresh: boolean;
  issues: ConfigIssue[];
}

/** The text of a failure of a serial request, a bridge call, or an API call (null: already shown). */
export function benchProblem(error: unknown): BenchProblem | null {
  if (error instanceof SerialError) {
    return {
      text: tx(`manufacture.serialError.${error.code}`),
      refresh: error.code === 'mismatch' || error.code === 'closed',
      issues: error.issues ?? [],
    };
  }
  if (error instanceof BridgeError) {
    return { text: tx(`manufacture.bridgeError.${error.code}`), refresh: false, issues: [] };
  }
  if (error instanceof ApiError) {
    const text = errorMessage(error);
    if (text === null) return null;
    return { text, refresh: error.code === 'lift.mismatch', issues: [] };
  }
  return { text: errorMessage(error) ?? tx('errors.unknown'), refresh: false, issues: [] };
}

/** A field problem reported by the controller or the schema, with its limits. */
export function issueText(issue: Pick<ConfigIssue, 'message' | 'params'>): string {
  const name = issue.message.replace(/^validation\./, '');
  if (hasKey(`config.issue.${name}`)) return tx(`config.issue.${name}`, { ...issue.params });
  if (hasKey(`manufacture.issue.${name}`))
    return tx(`manufacture.issue.${name}`, { ...issue.params });
  return translateIssue(issue.message);
}
