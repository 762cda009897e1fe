import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { eventText, type IncidentDetail } from '@liftlink/protocol';
import { useLanguage } from '../../../lib/i18n/language.ts';

const TIME = 'MM-DD HH:mm:ss';

/** The code's text in the page's language; a code this client does not know keeps the server's text. */
function textOf(event: IncidentDetail['events'][number], language: string): string {
  const text = eventText(event.code, language);
  return text === event.code ? event.text : text;
}

/**
 * The lift's run log from a minute before the incident opened to its end: code and text in
 * the page's language (faults marked), so a technician sees what led up to it.
 */
export function IncidentEvents({ events }: { events: IncidentDetail['events'] }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  if (events.length === 0) return <div className="lift-muted">{t('incident.events.empty')}</div>;
  return (
    <ol className="incident-events" data-testid="incident-events">
      {events.map((event) => (
        <li
          key={event.id}
          className={event.fault ? 'incident-event incident-event-fault' : 'incident-event'}
        >
          <span className="incident-event-time">{dayjs(event.ts).format(TIME)}</span>
          <code className="incident-event-code">{event.code}</code>
          <span className="incident-event-text">{textOf(event, language)}</span>
        </li>
      ))}
    </ol>
  );
}
