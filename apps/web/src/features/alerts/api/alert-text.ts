import { eventText } from '@liftlink/protocol';
import { tx } from '../../../lib/i18n/i18n.ts';
import type { AlertItem } from '../../../lib/live/messages.ts';

// Apart from the fetchers: the event texts (and the protocol module holding them) load
// only with the pages and panels that show alerts, not with the header's bell.
/** What the alert is about, in the user's language. */
export function alertText(alert: Pick<AlertItem, 'kind' | 'code'>, language: string): string {
  if (alert.kind === 'fault' && alert.code)
    return `${alert.code} · ${eventText(alert.code, language)}`;
  return tx(`alert.text.${alert.kind}`);
}
