import { Descriptions, Tag } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MaintenanceVisit } from '@liftlink/protocol';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { limitsText } from '../model/checklist.ts';
import { itemLabel } from './labels.ts';

const TIME = 'YYYY-MM-DD HH:mm';

/** "All passed" or "2 failed": the result of a visit at a glance. */
export function VisitResultTag({ visit }: { visit: MaintenanceVisit }) {
  const { t } = useTranslation();
  const failed = visit.results.filter((r) => !r.passed).length;
  return failed === 0 ? (
    <Tag color="success" data-testid="visit-result">
      {t('maintenance.visit.allPassed')}
    </Tag>
  ) : (
    <Tag color="error" data-testid="visit-result">
      {t('maintenance.visit.failedCount', { count: failed })}
    </Tag>
  );
}

/** A recorded visit: who and when, each checklist answer, findings, parts and closed incidents. */
export function VisitSummary({ visit }: { visit: MaintenanceVisit }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <div className="visit-summary" data-testid="visit-summary">
      <Descriptions
        column={1}
        size="small"
        className="visit-facts"
        items={[
          {
            key: 'when',
            label: t('maintenance.visit.when'),
            children: `${dayjs(visit.startedAt).format(TIME)} – ${dayjs(visit.endedAt).format('HH:mm')}`,
          },
          {
            key: 'who',
            label: t('maintenance.visit.technician'),
            children: <span data-testid="visit-technician">{visit.technicianName}</span>,
          },
          {
            key: 'result',
            label: t('maintenance.visit.result'),
            children: <VisitResultTag visit={visit} />,
          },
          {
            key: 'trips',
            label: t('maintenance.visit.tripsAt'),
            children: visit.tripsAt.toLocaleString(language),
          },
        ]}
      />
      <ul className="visit-results">
        {visit.results.map((result) => (
          <li
            key={result.itemId}
            className={result.passed ? 'visit-result-pass' : 'visit-result-fail'}
            data-testid={`visit-result-${result.itemId}`}
          >
            <span className="visit-result-icon" aria-hidden>
              {result.passed ? <CheckCircleFilled /> : <CloseCircleFilled />}
            </span>
            <span className="visit-result-text">
              <span>{itemLabel(result, language)}</span>
              <span className="visit-result-meta">
                {result.passed ? t('maintenance.verdict.pass') : t('maintenance.verdict.fail')}
                {result.value !== null
                  ? ` · ${result.value}${result.unit ? ` ${result.unit}` : ''}`
                  : ''}
                {result.type === 'measured' && limitsText(result)
                  ? ` (${t('maintenance.checklist.limits', { limits: limitsText(result) })})`
                  : ''}
              </span>
              {result.note ? <span className="visit-result-note">{result.note}</span> : null}
            </span>
          </li>
        ))}
      </ul>
      <Descriptions
        column={1}
        size="small"
        className="visit-facts"
        items={[
          {
            key: 'findings',
            label: t('maintenance.visit.findings'),
            children: (
              <span className="visit-findings" data-testid="visit-findings">
                {visit.findings || t('maintenance.visit.noFindings')}
              </span>
            ),
          },
          ...(visit.partsUsed.length > 0
            ? [
                {
                  key: 'parts',
                  label: t('maintenance.visit.partsUsed'),
                  children: visit.partsUsed.join(', '),
                },
              ]
            : []),
          ...(visit.incidentIds.length > 0
            ? [
                {
                  key: 'incidents',
                  label: t('maintenance.visit.closedIncidents'),
                  children: (
                    <span className="visit-incident-links" data-testid="visit-closed-incidents">
                      {visit.incidentIds.map((id) => (
                        <Link key={id} to={`/lift/incidents/${id}`}>
                          #{id}
                        </Link>
                      ))}
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
