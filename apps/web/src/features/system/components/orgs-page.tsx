import { useMemo, useState } from 'react';
import { Button, Card, Form, Input, Select, Space, Table, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TIME_ZONE, ORG_KINDS, orgCreateSchema, type OrgView } from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { Access, useAccess } from '../../../lib/access.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { systemApi, useOrgs, useSystemMutation } from '../api/system-api.ts';
import { timeZoneOptions } from '../model/time-zones.ts';
import { DeleteButton } from './delete-button.tsx';
import { OrgApprovalModal } from './org-approval-modal.tsx';
import { OrgEscalationModal } from './org-escalation-modal.tsx';
import { OrgLiftsDrawer } from './org-lifts-drawer.tsx';

interface Values {
  name: string;
  kind: OrgView['kind'];
  timeZone: string;
}

function OrgModal({
  open,
  org,
  onClose,
}: {
  open: boolean;
  org: OrgView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSystemMutation((values: Values) =>
    org
      ? systemApi.orgAction('update', { id: org.id, name: values.name, timeZone: values.timeZone })
      : systemApi.orgAction('create', values),
  );
  // Some 400 zones, each with its offset: built when the dialog opens, not on every keystroke.
  const zones = useMemo(() => (open ? timeZoneOptions(org?.timeZone) : []), [open, org?.timeZone]);
  return (
    <FormModal
      open={open}
      title={org ? t('system.org.edit') : t('system.org.create')}
      form={form}
      initialValues={
        org
          ? { name: org.name, kind: org.kind, timeZone: org.timeZone }
          : { kind: 'operator', timeZone: DEFAULT_TIME_ZONE }
      }
      save={(values) => save.mutateAsync(values)}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('system.org.name')}
        rules={[zodRule(orgCreateSchema.shape.name)]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="kind"
        label={t('system.org.kind')}
        rules={[zodRule(orgCreateSchema.shape.kind)]}
      >
        <Select
          disabled={org !== null}
          options={ORG_KINDS.map((kind) => ({
            value: kind,
            label: t(`system.org.kind.${kind}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="timeZone"
        label={t('system.org.timeZone')}
        extra={t('system.org.timeZoneHint')}
        rules={[zodRule(orgCreateSchema.shape.timeZone)]}
      >
        <Select
          showSearch
          optionFilterProp="label"
          options={zones}
          aria-label={t('system.org.timeZone')}
          data-testid="org-time-zone"
        />
      </Form.Item>
    </FormModal>
  );
}

/** Organizations (manufacturers and operators) and the lifts each operator holds. */
export default function OrgsPage() {
  const { t } = useTranslation();
  const can = useAccess();
  const orgs = useOrgs();
  const [editing, setEditing] = useState<{ org: OrgView | null } | null>(null);
  const [liftsOf, setLiftsOf] = useState<OrgView | null>(null);
  const [approvalOf, setApprovalOf] = useState<OrgView | null>(null);
  const [escalationOf, setEscalationOf] = useState<OrgView | null>(null);
  const remove = useSystemMutation((id: string) => systemApi.orgAction('delete', { id }));

  return (
    <PageContainer
      title={t('menu.system.orgs')}
      extra={
        <Access check="org.add">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ org: null })}>
            {t('system.org.create')}
          </Button>
        </Access>
      }
    >
      <Card>
        <Table<OrgView>
          rowKey="id"
          loading={orgs.isFetching}
          dataSource={orgs.data?.list ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { key: 'name', title: t('system.org.name'), dataIndex: 'name' },
            {
              key: 'kind',
              title: t('system.org.kind'),
              render: (_v, org) => (
                <Tag color={org.kind === 'operator' ? 'blue' : 'purple'}>
                  {t(`system.org.kind.${org.kind}`)}
                </Tag>
              ),
            },
            { key: 'timeZone', title: t('system.org.timeZone'), dataIndex: 'timeZone' },
            { key: 'users', title: t('system.org.users'), dataIndex: 'userCount' },
            { key: 'lifts', title: t('system.org.lifts'), dataIndex: 'liftCount' },
            {
              key: 'actions',
              title: t('common.actions'),
              render: (_v, org) => (
                <Space size={4} wrap>
                  {org.kind === 'operator' ? (
                    <Button size="small" type="link" onClick={() => setLiftsOf(org)}>
                      {t('system.org.manageLifts')}
                    </Button>
                  ) : null}
                  {can('org.query') ? (
                    <Button
                      size="small"
                      type="link"
                      data-testid="org-approval-open"
                      onClick={() => setApprovalOf(org)}
                    >
                      {t('system.org.approval')}
                    </Button>
                  ) : null}
                  {can('org.query') ? (
                    <Button
                      size="small"
                      type="link"
                      data-testid="org-escalation-open"
                      onClick={() => setEscalationOf(org)}
                    >
                      {t('escalation.open')}
                    </Button>
                  ) : null}
                  {can('org.edit') ? (
                    <Button size="small" type="link" onClick={() => setEditing({ org })}>
                      {t('common.edit')}
                    </Button>
                  ) : null}
                  {can('org.delete') ? (
                    <DeleteButton onDelete={() => remove.mutateAsync(org.id)} />
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <OrgModal
        open={editing !== null}
        org={editing?.org ?? null}
        onClose={() => setEditing(null)}
      />
      <OrgLiftsDrawer org={liftsOf} onClose={() => setLiftsOf(null)} />
      <OrgApprovalModal org={approvalOf} onClose={() => setApprovalOf(null)} />
      <OrgEscalationModal org={escalationOf} onClose={() => setEscalationOf(null)} />
    </PageContainer>
  );
}
