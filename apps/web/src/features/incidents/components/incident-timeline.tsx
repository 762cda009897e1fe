import { Timeline } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { IncidentStep } from '@liftlink/protocol';
import { tx } from '../../../lib/i18n/i18n.ts';

const TIME = 'YYYY-MM-DD HH:mm:ss';

/** What one step did: opened, moved to a state, assigned to someone, or escalated (someone asked to acknowledge). */
function stepText(step: IncidentStep): string {
  const t = tx;
  if (step.from === null) return t('incident.step.opened');
  if (step.escalatedTo)
    return t(step.escalatedManager ? 'incident.step.escalatedManager' : 'incident.step.escalated', {
      name: step.escalatedTo,
    });
  if (step.from === step.to) return t('incident.step.assigned', { name: step.assigneeName ?? '—' });
  return t('incident.step.moved', { state: t(`incident.state.${step.to}`) });
}

/** Every step with who took it (or "the system" for an alarm) and when, oldest first. */
export function IncidentTimeline({ steps }: { steps: IncidentStep[] }) {
  const { t } = useTranslation();
  return (
    <Timeline
      className="incident-timeline"
      data-testid="incident-timeline"
      items={steps.map((step) => ({
        key: step.id,
        color: step.escalatedTo
          ? 'orange'
          : step.to === 'cancelled'
            ? 'gray'
            : step.to === 'resolved' || step.to === 'closed'
              ? 'green'
              : 'blue',
        content: (
          <div className="incident-step" data-testid="incident-step">
            <div className="incident-step-what">{stepText(step)}</div>
            <div className="lift-muted">
              {t('incident.step.by', {
                who: step.actorName ?? t('incident.system'),
                time: dayjs(step.at).format(TIME),
              })}
            </div>
            {step.note ? <div className="incident-step-note">{step.note}</div> : null}
          </div>
        ),
      }))}
    />
  );
}
