import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, Result, Select, Space, Spin } from 'antd';
import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  maintenanceVisitRecordSchema,
  type ChecklistItemView,
  type IncidentView,
  type MaintenanceLift,
  type MaintenanceVisit,
} from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { PartsListField } from '../../../components/parts-list-field.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { liftAllows } from '../../../lib/access.tsx';
import { applyServerIssues, errorMessage } from '../../../lib/form-errors.ts';
import { ApiError } from '../../../lib/http.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { usePageSubject } from '../../../lib/page-subject.ts';
import { useSession } from '../../../lib/session.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import {
  useLiftSummary,
  useMaintenanceLift,
  useOpenIncidents,
  useRecordVisit,
} from '../api/maintenance-api.ts';
import { recordBody, tally, type VisitValues } from '../model/checklist.ts';
import { clearDraft, draftSlot, freshDraft, readDraft, saveDraft } from '../model/visit-draft.ts';
import { ChecklistRow } from './checklist-row.tsx';
import { DueLines, DueTag } from './due-status.tsx';
import { liftName } from './labels.ts';
import { VisitSummary } from './visit-summary.tsx';
import './maintenance.css';

const recordShape = maintenanceVisitRecordSchema.shape;
const rules = {
  findings: zodRule(recordShape.findings),
  part: zodRule(recordShape.partsUsed.unwrap().element),
};

/**
 * A maintenance visit on one lift, for a technician's phone: the lift's checklist (pass / fail
 * or measured values against their limits), findings, parts, the open incidents it resolves,
 * then one big button. A failed save keeps everything entered and says why; success shows
 * the visit as recorded. What was entered survives a reload (kept in this browser per lift,
 * with the form's idempotency key, until the server has recorded the visit).
 */
export default function VisitPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { liftId = '' } = useParams();
  const info = useLiftSummary(liftId);
  const maintenance = useMaintenanceLift(liftId);
  const lift = info.data?.lift;
  usePageSubject(lift ? lift.alias || lift.deviceNo || undefined : undefined);
  const [recorded, setRecorded] = useState<MaintenanceVisit | null>(null);

  const back = (
    <Button
      size="large"
      icon={<ArrowLeftOutlined />}
      onClick={() => void navigate(`/lift/${liftId}`)}
      data-testid="visit-back"
    >
      {t('maintenance.visit.backToLift')}
    </Button>
  );
  if (info.isPending || maintenance.isPending) return <PageLoading />;
  if (!info.data || !maintenance.data) {
    const error = info.error ?? maintenance.error;
    const notFound =
      error instanceof ApiError &&
      (error.status === 404 ||
        error.code === 'validation.failed' ||
        error.code === 'lift.notFound');
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? t('lift.notFound') : t('maintenance.loadFailed')}
        subTitle={notFound ? null : errorMessage(error)}
        extra={
          <Space wrap>
            {back}
            {notFound ? null : (
              <Button
                size="large"
                type="primary"
                onClick={() => void Promise.all([info.refetch(), maintenance.refetch()])}
                data-testid="visit-retry"
              >
                {t('exception.retry')}
              </Button>
            )}
          </Space>
        }
        data-testid="visit-load-error"
      />
    );
  }
  const subject = info.data.lift;
  const canRecord = liftAllows(subject, 'incident.edit');
  return (
    <PageContainer
      title={t('menu.cloud.maintenanceVisit')}
      extra={
        <Button
          size="large"
          icon={<ReloadOutlined />}
          onClick={() => void maintenance.refetch()}
          loading={maintenance.isFetching}
          aria-label={t('common.refresh')}
        />
      }
    >
      <div className="visit-page">
        <Card className="visit-lift" size="small">
          <div className="visit-lift-line">
            <span className="visit-lift-name" data-testid="visit-lift">
              <span>{liftName({ deviceNo: subject.deviceNo, alias: subject.alias })}</span>
              <span className="lift-muted">{tx(`device.kind.${subject.kind}`)}</span>
            </span>
            <DueTag status={maintenance.data.due.status} />
          </div>
          <DueLines due={maintenance.data.due} />
        </Card>
        {recorded ? (
          <Card
            title={t('maintenance.visit.recorded')}
            className="visit-done"
            data-testid="visit-recorded"
          >
            <VisitSummary visit={recorded} />
            <div className="visit-done-actions">{back}</div>
          </Card>
        ) : canRecord ? (
          <VisitForm liftId={liftId} data={maintenance.data} onRecorded={setRecorded} />
        ) : (
          <Result
            status="403"
            title={t('maintenance.visit.notAllowed')}
            extra={back}
            data-testid="visit-not-allowed"
          />
        )}
      </div>
    </PageContainer>
  );
}

interface VisitFormProps {
  liftId: string;
  data: MaintenanceLift;
  onRecorded: (visit: MaintenanceVisit) => void;
}

/** The form; "Start over" drops the kept draft and begins a new form (a new key, nothing entered). */
function VisitForm(props: VisitFormProps) {
  const [round, setRound] = useState(0);
  const slot = draftSlot(useSession().info.id, props.liftId);
  const startOver = () => {
    clearDraft(slot);
    setRound((n) => n + 1);
  };
  return <VisitFormRound key={round} {...props} onStartOver={startOver} />;
}

function VisitFormRound({
  liftId,
  data,
  onRecorded,
  onStartOver,
}: VisitFormProps & { onStartOver: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<VisitValues>();
  // The user's own draft: a phone passed to a colleague does not show them another's visit.
  const slot = draftSlot(useSession().info.id, liftId);
  // One key per visit form, kept across its retries and a reload: the server records it once.
  const [restored] = useState(() => readDraft(slot));
  const [draft] = useState(() => restored ?? freshDraft());
  const { startedAt, idempotencyKey } = draft;
  const keep = () =>
    saveDraft(slot, { ...draft, values: form.getFieldsValue(true) as VisitValues });
  const record = useRecordVisit();
  const conflict = record.error instanceof ApiError && record.error.code === 'conflict';
  const incidents = useOpenIncidents(liftId, true);
  const answers = Form.useWatch('answers', form) ?? {};
  const chosen = Form.useWatch('incidentIds', form) ?? [];
  const items: ChecklistItemView[] = data.checklist;
  const count = tally(items, answers);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) {
      form.scrollToField(firstError(form), { behavior: 'smooth', block: 'center' });
      return;
    }
    // Values the form holds but no longer shows (a note on an item passed since) stay put.
    const all = { ...form.getFieldsValue(true), ...values } as VisitValues;
    try {
      const visit = await record.mutateAsync({
        ...recordBody(liftId, items, all, startedAt),
        idempotencyKey,
      });
      clearDraft(slot);
      onRecorded(visit);
      window.scrollTo?.({ top: 0 });
    } catch (error) {
      applyServerIssues(form, error);
    }
  };

  return (
    <Form<VisitValues>
      form={form}
      layout="vertical"
      initialValues={draft.values}
      onValuesChange={keep}
      requiredMark={false}
      className="visit-form"
      data-testid="visit-form"
      onFinish={() => undefined}
    >
      {restored ? (
        <Alert
          type="info"
          showIcon
          className="visit-restored"
          title={t('maintenance.visit.restored')}
          action={
            <Button onClick={onStartOver} data-testid="visit-start-over">
              {t('maintenance.visit.startOver')}
            </Button>
          }
          data-testid="visit-restored"
        />
      ) : null}
      <Card
        title={t('maintenance.visit.checklist')}
        size="small"
        extra={
          <span className="visit-tally" data-testid="visit-tally">
            {t('maintenance.visit.tally', { answered: count.answered, total: count.total })}
          </span>
        }
      >
        {items.length === 0 ? (
          <Alert type="info" showIcon title={t('maintenance.checklist.empty')} />
        ) : (
          <ol className="visit-items" data-testid="visit-checklist">
            {items.map((item, index) => (
              <ChecklistRow key={item.id} item={item} index={index} answer={answers[item.id]} />
            ))}
          </ol>
        )}
      </Card>

      <Card title={t('maintenance.visit.findings')} size="small">
        <Form.Item name="findings" rules={[rules.findings]} className="visit-findings-field">
          <Input.TextArea
            autoSize={{ minRows: 3, maxRows: 10 }}
            maxLength={4000}
            placeholder={t('maintenance.visit.findingsPlaceholder')}
            aria-label={t('maintenance.visit.findings')}
            data-testid="visit-findings-input"
          />
        </Form.Item>
        <PartsListField
          name="partsUsed"
          prefix="visit"
          rule={rules.part}
          maxLength={200}
          texts={{
            label: t('maintenance.visit.partsUsed'),
            part: (n) => t('maintenance.visit.part', { n }),
            remove: t('maintenance.visit.removePart'),
            add: t('maintenance.visit.addPart'),
          }}
        />
      </Card>

      <Card title={t('maintenance.visit.incidents')} size="small" data-testid="visit-incidents">
        <IncidentChoice incidents={incidents} />
        {chosen.length > 0 ? (
          <Form.Item
            name="rootCause"
            label={t('maintenance.visit.rootCause')}
            className="visit-root-cause"
          >
            <Select<string>
              size="large"
              allowClear
              placeholder={t('maintenance.visit.rootCauseHint')}
              options={data.rootCauses.map((c) => ({ value: c.id, label: c.text }))}
              data-testid="visit-root-cause"
            />
          </Form.Item>
        ) : null}
      </Card>

      <div className="visit-submit-bar">
        {record.isError ? (
          <Alert
            type="error"
            showIcon
            className="visit-save-error"
            title={errorMessage(record.error) ?? t('maintenance.visit.saveFailed')}
            description={
              // The form was sent before with other values and recorded then (its answer got lost).
              conflict ? t('maintenance.visit.conflict') : t('maintenance.visit.keptValues')
            }
            action={
              conflict ? (
                <Button onClick={onStartOver} data-testid="visit-conflict-start-over">
                  {t('maintenance.visit.startOver')}
                </Button>
              ) : null
            }
            data-testid="visit-save-error"
          />
        ) : null}
        <div className="visit-submit-line">
          <span className="visit-submit-tally">
            {t('maintenance.visit.tally', { answered: count.answered, total: count.total })}
            {count.failed > 0 ? (
              <span className="visit-submit-failed">
                {' · '}
                {t('maintenance.visit.failedCount', { count: count.failed })}
              </span>
            ) : null}
          </span>
          <Button
            type="primary"
            size="large"
            loading={record.isPending}
            onClick={() => void submit()}
            className="visit-submit"
            data-testid="visit-submit"
          >
            {record.isError ? t('maintenance.visit.submitAgain') : t('maintenance.visit.submit')}
          </Button>
        </div>
      </div>
    </Form>
  );
}

/** The lift's open incidents as big check rows; any ticked one is resolved and closed by the visit. */
function IncidentChoice({ incidents }: { incidents: ReturnType<typeof useOpenIncidents> }) {
  const { t } = useTranslation();
  if (incidents.isPending)
    return (
      <div className="visit-loading" role="status">
        <Spin />
      </div>
    );
  if (incidents.isError)
    return <LoadError error={incidents.error} onRetry={() => void incidents.refetch()} />;
  const list = incidents.data.list;
  if (list.length === 0)
    return (
      <p className="lift-muted" data-testid="visit-no-incidents">
        {t('maintenance.visit.noOpenIncidents')}
      </p>
    );
  return (
    <>
      <p className="visit-incidents-hint">{t('maintenance.visit.incidentsHint')}</p>
      <Form.Item name="incidentIds" className="visit-incident-field">
        <Checkbox.Group className="visit-incident-list">
          {list.map((incident) => (
            <Checkbox
              key={incident.id}
              value={incident.id}
              className="visit-incident"
              data-testid={`visit-incident-${incident.id}`}
            >
              <span className="visit-incident-text">
                <span className="visit-incident-subject">
                  #{incident.id} · {incidentSubject(incident)}
                </span>
                <span className="lift-muted">{t(`incident.state.${incident.state}`)}</span>
              </span>
            </Checkbox>
          ))}
        </Checkbox.Group>
      </Form.Item>
    </>
  );
}

function incidentSubject(incident: IncidentView): string {
  if (incident.title) return incident.title;
  const cause = tx(`incident.cause.${incident.cause}`);
  return incident.code ? `${incident.code} · ${cause}` : cause;
}

/** The first field with an error, to scroll to it (a phone shows a few items at a time). */
function firstError(form: ReturnType<typeof Form.useForm<VisitValues>>[0]) {
  return form.getFieldsError().find((field) => field.errors.length > 0)?.name ?? [];
}
