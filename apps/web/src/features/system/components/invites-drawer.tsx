import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Drawer,
  Form,
  Grid,
  InputNumber,
  Modal,
  Table,
  Tag,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  inviteCreateSchema,
  type InviteCreated,
  type InviteCreateRequest,
  type InviteState,
  type InviteView,
} from '@liftlink/protocol';
import { applyServerIssues, showError } from '../../../lib/form-errors.ts';
import { roleLabel } from '../../../lib/labels.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { systemApi, useInvites, useSystemMutation } from '../api/system-api.ts';
import { OrgSelect, RoleSelect } from './org-role-selects.tsx';

const STATE_COLOR: Record<InviteState, string> = {
  active: 'green',
  expired: 'default',
  usedUp: 'blue',
  revoked: 'red',
};
const shape = inviteCreateSchema.shape;

/** The whole code, shown once after it was made, with a copy button. */
function CreatedCodeModal({
  created,
  onClose,
}: {
  created: InviteCreated | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={created !== null}
      title={t('invite.created')}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('common.ok')}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('invite.createdOnce')} style={{ marginBottom: 16 }} />
      <Typography.Title
        level={3}
        style={{ fontFamily: 'monospace', textAlign: 'center', margin: 0 }}
        copyable={
          created ? { text: created.code, tooltips: [t('invite.copy'), t('invite.copied')] } : false
        }
        data-testid="invite-created-code"
      >
        {created?.code}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginTop: 8 }}>
        {t('invite.expires')}: {created ? dayjs(created.expiresAt).format('YYYY-MM-DD HH:mm') : ''}
      </Typography.Paragraph>
    </Modal>
  );
}

/**
 * Invite codes (docs/product.md, "Invite codes"), for user administrators: make a code for
 * an organization and a role, see every code by its first characters, revoke one.
 */
export function InvitesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<InviteCreateRequest>();
  const invites = useInvites(open);
  const [created, setCreated] = useState<InviteCreated | null>(null);
  // On a phone the drawer takes the whole width; the table scrolls sideways.
  const isPhone = Grid.useBreakpoint().md === false;
  const create = useSystemMutation((body: InviteCreateRequest) => systemApi.createInvite(body));
  const revoke = useSystemMutation((id: string) => systemApi.revokeInvite(id));

  const submit = async (values: InviteCreateRequest) => {
    try {
      const result = (await create.mutateAsync(values)) as InviteCreated;
      setCreated(result);
      form.resetFields(['orgId']);
    } catch (error) {
      if (!applyServerIssues(form, error)) showError(message, error);
    }
  };

  const confirmRevoke = (invite: InviteView) => {
    void modal.confirm({
      title: t('invite.revokeConfirm', { prefix: invite.prefix }),
      okText: t('invite.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () =>
        revoke.mutateAsync(invite.id).then(
          () => void message.success(t('invite.revoked')),
          (error: unknown) => showError(message, error),
        ),
    });
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={isPhone ? '100%' : 820}
      title={t('invite.manage')}
      destroyOnHidden
    >
      <Form<InviteCreateRequest>
        form={form}
        layout="inline"
        requiredMark={false}
        initialValues={{ days: 7, maxUses: 1 }}
        onFinish={(values) => void submit(values)}
        style={{ rowGap: 8, marginBottom: 16 }}
        data-testid="invite-create-form"
      >
        <Form.Item name="orgId" rules={[zodRule(shape.orgId)]}>
          <OrgSelect
            enabled={open}
            placeholder={t('account.organization')}
            style={{ minWidth: 180 }}
            data-testid="invite-org"
          />
        </Form.Item>
        <Form.Item name="roleId" rules={[zodRule(shape.roleId)]}>
          <RoleSelect
            enabled={open}
            placeholder={t('account.role')}
            style={{ minWidth: 150 }}
            data-testid="invite-role"
          />
        </Form.Item>
        <Form.Item name="days" label={t('invite.days')} rules={[zodRule(shape.days)]}>
          <InputNumber
            min={1}
            max={365}
            precision={0}
            style={{ width: 80 }}
            data-testid="invite-days"
          />
        </Form.Item>
        <Form.Item name="maxUses" label={t('invite.maxUses')} rules={[zodRule(shape.maxUses)]}>
          <InputNumber
            min={1}
            max={1000}
            precision={0}
            style={{ width: 80 }}
            data-testid="invite-uses"
          />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<PlusOutlined />}
            loading={create.isPending}
            data-testid="invite-create"
          >
            {t('invite.create')}
          </Button>
        </Form.Item>
      </Form>
      <Table<InviteView>
        rowKey="id"
        size="small"
        loading={invites.isFetching}
        dataSource={invites.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        data-testid="invite-table"
        columns={[
          {
            key: 'code',
            title: t('invite.code'),
            render: (_v, invite) => <Typography.Text code>{`${invite.prefix}…`}</Typography.Text>,
          },
          {
            key: 'org',
            title: t('account.organization'),
            render: (_v, invite) => invite.organization.name,
          },
          {
            key: 'role',
            title: t('account.role'),
            render: (_v, invite) => roleLabel(invite.role.name),
          },
          {
            key: 'expires',
            title: t('invite.expires'),
            render: (_v, invite) => dayjs(invite.expiresAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            key: 'uses',
            title: t('invite.uses'),
            render: (_v, invite) => `${invite.uses}/${invite.maxUses}`,
          },
          {
            key: 'createdBy',
            title: t('invite.createdBy'),
            render: (_v, invite) => invite.createdBy ?? '—',
          },
          {
            key: 'state',
            title: t('invite.state'),
            render: (_v, invite) => (
              <Tag color={STATE_COLOR[invite.state]}>{t(`invite.state.${invite.state}`)}</Tag>
            ),
          },
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_v, invite) =>
              invite.state === 'revoked' ? null : (
                <Button size="small" type="link" danger onClick={() => confirmRevoke(invite)}>
                  {t('invite.revoke')}
                </Button>
              ),
          },
        ]}
      />
      <CreatedCodeModal created={created} onClose={() => setCreated(null)} />
    </Drawer>
  );
}
