import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Pagination,
  Popconfirm,
  Row,
  Spin,
} from 'antd';
import { DownOutlined, EditOutlined, FormOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { LiftInfo, MaintenanceLift, MaintenanceVisit } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { liftAllows } from '../../../lib/access.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import {
  maintenanceApi,
  useMaintenanceLift,
  usePlanMutation,
  useVisits,
} from '../api/maintenance-api.ts';
import { DueLines, DueTag } from './due-status.tsx';
import { PlanModal } from './plan-modal.tsx';
import { VisitResultTag, VisitSummary } from './visit-summary.tsx';
import './maintenance.css';

const DAY = 'YYYY-MM-DD';
const PAGE_SIZE = 10;

/**
 * The lift page's Maintenance tab: the plan (its intervals, editable by those who may change
 * the lift's configuration), where the lift stands (due / overdue, by date and by trips), the
 * button to record a visit, and the past visits with their results.
 */
export function MaintenanceTab({ info }: { info: LiftInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const liftId = info.lift.id;
  const maintenance = useMaintenanceLift(liftId);
  const canRecord = liftAllows(info.lift, 'incident.edit');
  const canPlan = liftAllows(info.lift, 'liftConfig.edit');

  if (maintenance.isPending)
    return (
      <div className="visit-loading" role="status">
        <Spin size="large" />
      </div>
    );
  if (maintenance.isError)
    return <LoadError error={maintenance.error} onRetry={() => void maintenance.refetch()} />;
  const data = maintenance.data;
  return (
    <div className="maintenance-tab" data-testid="maintenance-tab">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card
            title={t('maintenance.status')}
            size="small"
            extra={<DueTag status={data.due.status} />}
          >
            <DueState data={data} />
            {canRecord ? (
              <div className="maintenance-actions">
                <Button
                  type="primary"
                  size="large"
                  block
                  icon={<FormOutlined />}
                  onClick={() => void navigate(`/lift/maintenance/visit/${liftId}`)}
                  data-testid="maintenance-record-visit"
                >
                  {t('maintenance.recordVisit')}
                </Button>
              </div>
            ) : null}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <PlanCard liftId={liftId} data={data} canEdit={canPlan} />
        </Col>
        <Col xs={24}>
          <VisitList liftId={liftId} />
        </Col>
      </Row>
    </div>
  );
}

function DueState({ data }: { data: MaintenanceLift }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { due } = data;
  return (
    <Descriptions
      column={1}
      size="small"
      className="visit-facts"
      items={[
        {
          key: 'last',
          label: t('maintenance.lastVisit'),
          children: due.lastVisitAt
            ? dayjs(due.lastVisitAt).format(DAY)
            : t('maintenance.noVisitYet'),
        },
        ...(data.plan
          ? [{ key: 'due', label: t('maintenance.nextDue'), children: <DueLines due={due} /> }]
          : [
              {
                key: 'due',
                label: t('maintenance.nextDue'),
                children: t('maintenance.plan.none'),
              },
            ]),
        {
          key: 'trips',
          label: t('maintenance.tripsSinceVisit'),
          children: (
            <span data-testid="maintenance-trips">
              {due.tripsSinceVisit.toLocaleString(language)}
            </span>
          ),
        },
      ]}
    />
  );
}

function PlanCard({
  liftId,
  data,
  canEdit,
}: {
  liftId: string;
  data: MaintenanceLift;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const [editing, setEditing] = useState(false);
  const remove = usePlanMutation(liftId, () => maintenanceApi.deletePlan(liftId));
  const { plan } = data;
  return (
    <Card
      title={t('maintenance.plan.title')}
      size="small"
      data-testid="maintenance-plan"
      extra={
        canEdit ? (
          <Button
            icon={<EditOutlined />}
            size="large"
            onClick={() => setEditing(true)}
            data-testid="maintenance-plan-edit"
          >
            {plan ? t('common.edit') : t('maintenance.plan.set')}
          </Button>
        ) : null
      }
    >
      {plan ? (
        <Descriptions
          column={1}
          size="small"
          className="visit-facts"
          items={[
            {
              key: 'days',
              label: t('maintenance.plan.intervalDays'),
              children: (
                <span data-testid="maintenance-plan-days">
                  {plan.intervalDays === null
                    ? t('maintenance.plan.noInterval')
                    : t('maintenance.plan.everyDays', { count: plan.intervalDays })}
                </span>
              ),
            },
            {
              key: 'trips',
              label: t('maintenance.plan.intervalTrips'),
              children: (
                <span data-testid="maintenance-plan-trips">
                  {plan.intervalTrips === null
                    ? t('maintenance.plan.noInterval')
                    : t('maintenance.plan.everyTrips', {
                        trips: plan.intervalTrips.toLocaleString(language),
                      })}
                </span>
              ),
            },
            {
              key: 'since',
              label: t('maintenance.plan.since'),
              children: `${dayjs(plan.since).format(DAY)}${plan.updatedByName ? ` · ${plan.updatedByName}` : ''}`,
            },
          ]}
        />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('maintenance.plan.noneHint')}
          data-testid="maintenance-plan-none"
        />
      )}
      {canEdit && plan ? (
        <Popconfirm
          title={t('maintenance.plan.deleteConfirm')}
          okText={t('common.delete')}
          cancelText={t('common.cancel')}
          onConfirm={() =>
            remove.mutateAsync(undefined).then(
              () => void message.success(t('maintenance.plan.deleted')),
              (error: unknown) => showError(message, error),
            )
          }
        >
          <Button
            danger
            size="large"
            loading={remove.isPending}
            data-testid="maintenance-plan-delete"
          >
            {t('maintenance.plan.delete')}
          </Button>
        </Popconfirm>
      ) : null}
      <PlanModal open={editing} liftId={liftId} plan={plan} onClose={() => setEditing(false)} />
    </Card>
  );
}

function VisitList({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const visits = useVisits(liftId, page, PAGE_SIZE);
  const list = visits.data?.list ?? [];
  return (
    <Card title={t('maintenance.visits')} size="small" data-testid="maintenance-visits">
      {visits.isError ? (
        <LoadError error={visits.error} onRetry={() => void visits.refetch()} />
      ) : visits.isPending ? (
        <div className="visit-loading" role="status">
          <Spin />
        </div>
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('maintenance.noVisits')} />
      ) : (
        <ul className="maintenance-visits">
          {list.map((visit) => (
            <VisitRow
              key={visit.id}
              visit={visit}
              open={open === visit.id}
              onToggle={() => setOpen((id) => (id === visit.id ? null : visit.id))}
            />
          ))}
        </ul>
      )}
      {(visits.data?.total ?? 0) > PAGE_SIZE ? (
        <Pagination
          simple
          align="center"
          className="incident-pagination"
          current={page}
          pageSize={PAGE_SIZE}
          total={visits.data?.total ?? 0}
          onChange={setPage}
        />
      ) : null}
    </Card>
  );
}

function VisitRow({
  visit,
  open,
  onToggle,
}: {
  visit: MaintenanceVisit;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <li className="maintenance-visit" data-testid="maintenance-visit">
      <button
        type="button"
        className="maintenance-visit-head"
        onClick={onToggle}
        aria-expanded={open}
      >
        {open ? <DownOutlined /> : <RightOutlined />}
        <strong>{dayjs(visit.endedAt).format('YYYY-MM-DD HH:mm')}</strong>
        <span>{visit.technicianName}</span>
        <VisitResultTag visit={visit} />
      </button>
      {open ? (
        <div className="maintenance-visit-body">
          <VisitSummary visit={visit} />
        </div>
      ) : null}
    </li>
  );
}
