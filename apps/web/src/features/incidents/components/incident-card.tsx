import { ClockCircleOutlined, RedoOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { IncidentView } from '@liftlink/protocol';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { ageOf, isActive } from '../model/incident-steps.ts';
import { CauseTag, incidentSubject, liftLabel, PriorityTag, StateTag } from './incident-tags.tsx';

/** "12 min", "3 h", "2 d" from `from` to `to` (ms). */
export function ageText(from: string, to: number): string {
  const age = ageOf(from, to);
  return tx(`incident.age.${age.unit}`, { count: age.count });
}

/**
 * One incident in the list: the whole card opens it (a big target for a thumb). What a
 * technician decides by comes first: priority, what happened, which lift.
 */
export function IncidentCard({ incident, now }: { incident: IncidentView; now: number }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const active = isActive(incident.state);
  return (
    <Link
      to={`/lift/incidents/${incident.id}`}
      className={`incident-card incident-card-${incident.priority}${active ? '' : ' incident-card-done'}`}
      data-testid="incident-card"
      data-incident={incident.id}
      data-state={incident.state}
    >
      <div className="incident-card-line">
        <PriorityTag priority={incident.priority} />
        <StateTag state={incident.state} />
        <CauseTag cause={incident.cause} />
      </div>
      <div className="incident-card-subject">{incidentSubject(incident, language)}</div>
      <div className="incident-card-lift">{liftLabel(incident)}</div>
      <div className="incident-card-line incident-card-meta">
        <span>
          <ClockCircleOutlined />{' '}
          {active
            ? t('incident.openFor', { age: ageText(incident.openedAt, now) })
            : t('incident.tookAge', {
                age: ageText(
                  incident.openedAt,
                  Date.parse(incident.endedAt ?? incident.stateChangedAt),
                ),
              })}
        </span>
        <span data-testid="incident-assignee">
          <UserOutlined /> {incident.assigneeName ?? t('incident.unassigned')}
        </span>
        {incident.repeats > 0 ? (
          <span className="incident-repeats" data-testid="incident-repeats">
            <RedoOutlined /> {t('incident.repeats', { count: incident.repeats })}
          </span>
        ) : null}
      </div>
    </Link>
  );
}
