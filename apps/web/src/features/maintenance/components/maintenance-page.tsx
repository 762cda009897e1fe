import { useState } from 'react';
import { App, Button, Card, Col, Empty, Popconfirm, Row, Select, Spin, Tabs, Tag } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { DeviceKind, MaintenanceTemplate } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { useSession } from '../../../lib/session.ts';
import { showError } from '../../../lib/form-errors.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import {
  maintenanceApi,
  useOrgs,
  useTemplateMutation,
  useTemplates,
} from '../api/maintenance-api.ts';
import { limitsText } from '../model/checklist.ts';
import { DueList } from './due-list.tsx';
import { itemLabel } from './labels.ts';
import { TemplateModal } from './template-modal.tsx';
import './maintenance.css';

/**
 * Maintenance across the user's lifts: those overdue or due soon, and the checklist a visit
 * fills in for each lift kind (the organization's own or the built-in one), editable by those
 * who may change lift configuration.
 */
export default function MaintenancePage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('due');
  return (
    <PageContainer title={t('menu.cloud.maintenance')}>
      <div className="maintenance-page">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          className="maintenance-tabs"
          items={[
            {
              key: 'due',
              label: t('maintenance.dueCard'),
              children: (
                <Card>
                  <DueList />
                </Card>
              ),
            },
            { key: 'checklists', label: t('maintenance.checklists'), children: <Templates /> },
          ]}
        />
      </div>
    </PageContainer>
  );
}

function Templates() {
  const { t } = useTranslation();
  const can = useAccess();
  // A user of no organization (the administrator) picks whose checklists to see.
  const picksOrg = useSession().info.organization === null && can('org.query');
  const orgs = useOrgs(picksOrg);
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const orgId = picksOrg ? (picked ?? orgs.data?.list[0]?.id) : undefined;
  const templates = useTemplates(orgId, !picksOrg || orgId !== undefined);
  const [editing, setEditing] = useState<MaintenanceTemplate | null>(null);
  const orgPicker = picksOrg ? (
    <Select<string>
      size="large"
      value={orgId}
      onChange={setPicked}
      loading={orgs.isPending}
      options={(orgs.data?.list ?? []).map((org) => ({ value: org.id, label: org.name }))}
      placeholder={t('maintenance.template.org')}
      aria-label={t('maintenance.template.org')}
      className="template-org"
      data-testid="template-org"
    />
  ) : null;
  if (picksOrg && orgs.isError)
    return <LoadError error={orgs.error} onRetry={() => void orgs.refetch()} />;
  if (picksOrg && orgs.data?.list.length === 0)
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('maintenance.template.noOrg')} />
    );
  if (templates.isPending)
    return (
      <div className="visit-loading" role="status">
        <Spin size="large" />
      </div>
    );
  if (templates.isError)
    return <LoadError error={templates.error} onRetry={() => void templates.refetch()} />;
  const canEdit = can('liftConfig.edit');
  return (
    <>
      <p className="lift-muted">{t('maintenance.template.intro')}</p>
      {orgPicker}
      <Row gutter={[16, 16]}>
        {templates.data.list.map((template) => (
          <Col key={template.kind} xs={24} lg={12}>
            <TemplateCard
              template={template}
              orgId={orgId}
              canEdit={canEdit}
              onEdit={() => setEditing(template)}
            />
          </Col>
        ))}
      </Row>
      <TemplateModal template={editing} orgId={orgId} onClose={() => setEditing(null)} />
    </>
  );
}

function TemplateCard({
  template,
  orgId,
  canEdit,
  onEdit,
}: {
  template: MaintenanceTemplate;
  orgId: string | undefined;
  canEdit: boolean;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const reset = useTemplateMutation((kind: DeviceKind) =>
    maintenanceApi.resetTemplate({ ...(orgId ? { orgId } : {}), kind }),
  );
  return (
    <Card
      size="small"
      title={tx(`device.kind.${template.kind}`)}
      data-testid={`template-${template.kind}`}
      extra={
        template.custom ? (
          <Tag color="blue">{t('maintenance.template.custom')}</Tag>
        ) : (
          <Tag>{t('maintenance.template.builtIn')}</Tag>
        )
      }
    >
      <ol className="template-items">
        {template.items.map((item) => (
          <li key={item.id}>
            <span>{itemLabel(item, language)}</span>
            <span className="lift-muted">
              {item.type === 'measured'
                ? `${t('maintenance.template.measured')}${limitsText(item) ? ` · ${limitsText(item)}` : item.unit ? ` · ${item.unit}` : ''}`
                : t('maintenance.template.passFail')}
            </span>
          </li>
        ))}
      </ol>
      {template.custom && template.updatedAt ? (
        <p className="lift-muted">
          {t('maintenance.template.changed', {
            time: dayjs(template.updatedAt).format('YYYY-MM-DD HH:mm'),
            who: template.updatedByName ?? '—',
          })}
        </p>
      ) : null}
      {canEdit ? (
        <div className="maintenance-actions" style={{ marginTop: 12 }}>
          <Button
            size="large"
            icon={<EditOutlined />}
            onClick={onEdit}
            data-testid={`template-edit-${template.kind}`}
          >
            {t('common.edit')}
          </Button>
          {template.custom ? (
            <Popconfirm
              title={t('maintenance.template.resetConfirm')}
              okText={t('maintenance.template.reset')}
              cancelText={t('common.cancel')}
              onConfirm={() =>
                reset.mutateAsync(template.kind).then(
                  () => void message.success(t('common.saved')),
                  (error: unknown) => showError(message, error),
                )
              }
            >
              <Button size="large" loading={reset.isPending}>
                {t('maintenance.template.reset')}
              </Button>
            </Popconfirm>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
