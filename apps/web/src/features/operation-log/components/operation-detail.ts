import { refusalText } from '@liftlink/protocol';
import { hasKey, tx } from '../../../lib/i18n/i18n.ts';
import { commandLabel } from '../../lift-detail/model/command-label.ts';
import type { OperationLogEntry } from '../api/operation-log-api.ts';

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v);

/** The action in the user's words (the code itself when it is not one we name). */
export function actionText(action: string): string {
  const key = `oplog.action.${action}`;
  return hasKey(key) ? tx(key) : action;
}

/** The result in the user's words: command states, or ok. */
export function resultText(result: string): string {
  if (hasKey(`command.state.${result}`)) return tx(`command.state.${result}`);
  if (hasKey(`oplog.result.${result}`)) return tx(`oplog.result.${result}`);
  return result;
}

export function resultColor(result: string): string {
  if (['ok', 'done', 'applied'].includes(result)) return 'green';
  if (['accepted', 'sent', 'created'].includes(result)) return 'blue';
  if (['rejected', 'failed', 'timeout', 'expired', 'error'].includes(result)) return 'red';
  return 'default';
}

/** What the operation did, in one line. */
export function operationDetail(entry: OperationLogEntry, language: string): string {
  const d = entry.detail ?? {};
  const reason = typeof d.reason === 'string' && d.reason ? refusalText(d.reason, language) : '';
  const withReason = (text: string) => (reason ? `${text} · ${reason}` : text);
  switch (entry.action) {
    case 'lift.command':
      return withReason(
        commandLabel(str(d.name), (d.args as Record<string, unknown> | undefined) ?? {}),
      );
    case 'lift.configure':
    case 'lift.readConfig': {
      const version = (d.args as { version?: unknown } | undefined)?.version;
      return withReason(
        typeof version === 'number' ? tx('oplog.detail.fromVersion', { version }) : '',
      );
    }
    case 'lift.alias':
      return `${str(d.before) || '—'} → ${str(d.after) || '—'}`;
    case 'lift.location': {
      const after = d.after as { address?: unknown } | undefined;
      return str(after?.address);
    }
    case 'lift.exportLog':
      return tx('oplog.detail.rows', { rows: Number(d.rows ?? 0) });
    default:
      return Object.keys(d).length ? JSON.stringify(d).slice(0, 200) : '';
  }
}
