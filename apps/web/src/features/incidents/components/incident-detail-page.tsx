import { Button, Card, Col, Descriptions, Result, Row, Space } from 'antd';
import { ArrowLeftOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { pickText, ROOT_CAUSE_TEXTS, type IncidentDetail } from '@liftlink/protocol';
import { PageContainer } from '../../../components/page-container.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import { ApiError } from '../../../lib/http.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { usePageSubject } from '../../../lib/page-subject.ts';
import { useIncident } from '../api/incidents-api.ts';
import { useIncidentLive } from '../hooks/use-incidents-live.ts';
import { useMinute } from '../hooks/use-minute.ts';
import { isActive } from '../model/incident-steps.ts';
import { AssignControl } from './assign-control.tsx';
import { IncidentActions } from './incident-actions.tsx';
import { ageText } from './incident-card.tsx';
import { IncidentEvents } from './incident-events.tsx';
import { IncidentNotes } from './incident-notes.tsx';
import { IncidentPhotos } from './incident-photos.tsx';
import { CauseTag, incidentSubject, liftLabel, PriorityTag, StateTag } from './incident-tags.tsx';
import { IncidentTimeline } from './incident-timeline.tsx';
import './incidents.css';

const TIME = 'YYYY-MM-DD HH:mm';

/**
 * One incident: what and where, the next steps as big buttons, who works on it, notes,
 * the steps so far and the lift's events meanwhile. Changes by others arrive live.
 */
export default function IncidentDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { incidentId = '' } = useParams();
  const id = /^\d+$/.test(incidentId) ? Number(incidentId) : 0;
  const detail = useIncident(id);
  useIncidentLive(detail.data?.incident.liftId, id);
  usePageSubject(detail.data ? liftLabel(detail.data.incident) : undefined);

  const back = (
    <Button
      size="large"
      icon={<ArrowLeftOutlined />}
      onClick={() => void navigate('/lift/incidents')}
    >
      {t('incident.backToList')}
    </Button>
  );
  if (id > 0 && detail.isPending) return <PageLoading />;
  if (!detail.data) {
    const notFound =
      id === 0 ||
      (detail.error instanceof ApiError &&
        (detail.error.status === 404 || detail.error.code === 'validation.failed'));
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? t('errors.incident.notFound') : t('incident.loadFailed')}
        subTitle={notFound ? null : errorMessage(detail.error)}
        extra={
          <Space wrap>
            {back}
            {notFound ? null : (
              <Button size="large" type="primary" onClick={() => void detail.refetch()}>
                {t('exception.retry')}
              </Button>
            )}
          </Space>
        }
        data-testid="incident-load-error"
      />
    );
  }
  return (
    <PageContainer
      title={t('menu.cloud.incidentDetail')}
      extra={
        <Button
          size="large"
          icon={<ReloadOutlined />}
          onClick={() => void detail.refetch()}
          loading={detail.isFetching}
          aria-label={t('common.refresh')}
        />
      }
    >
      <IncidentBody data={detail.data} />
    </PageContainer>
  );
}

function IncidentBody({ data }: { data: IncidentDetail }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const can = useAccess();
  const now = useMinute();
  const { incident } = data;
  const editable = can('incident.edit');
  const rootCause =
    incident.rootCause && Object.hasOwn(ROOT_CAUSE_TEXTS, incident.rootCause)
      ? pickText(ROOT_CAUSE_TEXTS[incident.rootCause as keyof typeof ROOT_CAUSE_TEXTS], language)
      : incident.rootCause;

  return (
    <Row gutter={[16, 16]} className="incident-detail" data-testid="incident-detail">
      <Col xs={24} lg={10}>
        <Space direction="vertical" size={16} className="incident-column">
          <Card
            className={`incident-head incident-card-${incident.priority}${isActive(incident.state) ? '' : ' incident-card-done'}`}
          >
            <div className="incident-card-line">
              <PriorityTag priority={incident.priority} />
              <StateTag state={incident.state} />
              <CauseTag cause={incident.cause} />
            </div>
            <h2 className="incident-head-subject" data-testid="incident-subject">
              {incidentSubject(incident, language)}
            </h2>
            <Link
              to={`/lift/${incident.liftId}`}
              className="incident-lift-link"
              data-testid="incident-lift-link"
            >
              <span className="incident-lift-name">
                <span>{liftLabel(incident)}</span>
                <span className="lift-muted">{tx(`device.kind.${incident.liftKind}`)}</span>
              </span>
              <RightOutlined />
            </Link>
            <Descriptions
              column={1}
              size="small"
              className="incident-facts"
              items={[
                {
                  key: 'opened',
                  label: t('incident.field.openedAt'),
                  children: t('incident.openedBy', {
                    time: dayjs(incident.openedAt).format(TIME),
                    who: incident.openedByName ?? t('incident.system'),
                  }),
                },
                {
                  key: 'age',
                  label: t(
                    isActive(incident.state) ? 'incident.field.openFor' : 'incident.field.took',
                  ),
                  children: ageText(
                    incident.openedAt,
                    isActive(incident.state)
                      ? now
                      : Date.parse(incident.endedAt ?? incident.stateChangedAt),
                  ),
                },
                {
                  key: 'assignee',
                  label: t('incident.field.assignee'),
                  children: (
                    <span data-testid="incident-detail-assignee">
                      {incident.assigneeName ?? t('incident.unassigned')}
                    </span>
                  ),
                },
                ...(incident.repeats > 0
                  ? [
                      {
                        key: 'repeats',
                        label: t('incident.field.repeats'),
                        children: t('incident.repeatsLast', {
                          count: incident.repeats,
                          time: dayjs(incident.lastRepeatAt ?? incident.openedAt).format(TIME),
                        }),
                      },
                    ]
                  : []),
              ]}
            />
          </Card>
          {editable && isActive(incident.state) ? (
            <Card title={t('incident.section.assignee')} size="small">
              <AssignControl incident={incident} />
            </Card>
          ) : null}
          {editable ? <IncidentActions incident={incident} /> : null}
          {rootCause ? (
            <Card
              title={t('incident.section.resolution')}
              size="small"
              data-testid="incident-resolution"
            >
              <Descriptions
                column={1}
                size="small"
                items={[
                  { key: 'cause', label: t('incident.field.rootCause'), children: rootCause },
                  ...(incident.resolutionText
                    ? [
                        {
                          key: 'text',
                          label: t('incident.field.resolutionText'),
                          children: incident.resolutionText,
                        },
                      ]
                    : []),
                  ...(incident.partsUsed.length > 0
                    ? [
                        {
                          key: 'parts',
                          label: t('incident.field.partsUsed'),
                          children: incident.partsUsed.join(', '),
                        },
                      ]
                    : []),
                ]}
              />
            </Card>
          ) : null}
        </Space>
      </Col>
      <Col xs={24} lg={14}>
        <Space direction="vertical" size={16} className="incident-column">
          <Card title={t('incident.section.notes')} size="small">
            <IncidentNotes incidentId={incident.id} notes={data.notes} canAdd={editable} />
          </Card>
          <Card title={t('incident.section.photos')} size="small">
            <IncidentPhotos incidentId={incident.id} canAdd={editable} />
          </Card>
          <Card title={t('incident.section.steps')} size="small">
            <IncidentTimeline steps={data.steps} />
          </Card>
          <Card title={t('incident.section.events')} size="small">
            <IncidentEvents events={data.events} />
          </Card>
        </Space>
      </Col>
    </Row>
  );
}
