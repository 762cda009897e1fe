import { Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { MaintenanceDue, MaintenanceDueStatus } from '@liftlink/protocol';
import { useLanguage } from '../../../lib/i18n/language.ts';

const COLORS: Record<MaintenanceDueStatus, string> = {
  ok: 'success',
  dueSoon: 'warning',
  overdue: 'error',
  noPlan: 'default',
};

export function DueTag({ status }: { status: MaintenanceDueStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} data-testid="due-status" data-status={status} className="due-tag">
      {t(`maintenance.due.${status}`)}
    </Tag>
  );
}

/**
 * The due state in words, one line per interval: "Due on 2026-12-01 (in 6 days)" or
 * "Overdue since … (9 days)"; "1,200 of 5,000 trips (3,800 left)" or "… over by 150".
 */
export function useDueLines(due: MaintenanceDue): { days: string | null; trips: string | null } {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const n = (value: number) => value.toLocaleString(language);
  const days =
    due.dueAt === null || due.daysLeft === null
      ? null
      : due.daysLeft < 0
        ? t('maintenance.due.daysOver', {
            date: dayjs(due.dueAt).format('YYYY-MM-DD'),
            count: -due.daysLeft,
          })
        : t('maintenance.due.daysLeft', {
            date: dayjs(due.dueAt).format('YYYY-MM-DD'),
            count: due.daysLeft,
          });
  const trips =
    due.tripsDue === null || due.tripsLeft === null
      ? null
      : due.tripsLeft < 0
        ? t('maintenance.due.tripsOver', {
            done: n(due.tripsSinceVisit),
            due: n(due.tripsDue),
            over: n(-due.tripsLeft),
          })
        : t('maintenance.due.tripsLeft', {
            done: n(due.tripsSinceVisit),
            due: n(due.tripsDue),
            left: n(due.tripsLeft),
          });
  return { days, trips };
}

/** The due lines under each other (the lift's tab, the due lists). */
export function DueLines({ due }: { due: MaintenanceDue }) {
  const { days, trips } = useDueLines(due);
  return (
    <span className="due-lines" data-testid="due-lines">
      {days ? <span data-testid="due-days">{days}</span> : null}
      {trips ? <span data-testid="due-trips">{trips}</span> : null}
    </span>
  );
}
