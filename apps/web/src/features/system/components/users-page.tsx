import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Dropdown,
  Form,
  Input,
  Modal,
  Segmented,
  Space,
  Table,
  Tag,
} from 'antd';
import { KeyOutlined, MoreOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { userResetPasswordSchema, type UserView } from '@liftlink/protocol';
import { PageContainer } from '../../../components/page-container.tsx';
import { PasswordStrength } from '../../../components/password-strength.tsx';
import { Access, useAccess } from '../../../lib/access.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import { roleLabel } from '../../../lib/labels.ts';
import { useSession } from '../../../lib/session.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { systemApi, useSystemMutation, useUsers } from '../api/system-api.ts';
import { UserFormModal } from './user-form-modal.tsx';
import { AssignUserModal } from './assign-user-modal.tsx';
import { InvitesDrawer } from './invites-drawer.tsx';

const STATUS_COLOR = { active: 'green', frozen: 'blue', pending: 'orange' } as const;

function ResetPasswordModal({ user, onClose }: { user: UserView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string }>();
  const password = Form.useWatch('password', form) ?? '';
  const reset = useSystemMutation((body: { id: string; password: string }) =>
    systemApi.userAction('reset-password', body),
  );
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !user) return;
    reset.mutate(
      { id: user.id, password: values.password },
      {
        onSuccess: () => {
          void message.success(t('system.user.passwordReset'));
          onClose();
        },
        onError: (error) => {
          const text = errorMessage(error);
          if (text) void message.error(text);
        },
      },
    );
  };
  return (
    <Modal
      open={user !== null}
      title={t('system.user.resetPassword', { name: user?.username ?? '' })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={reset.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={[zodRule(userResetPasswordSchema.shape.password)]}
          extra={password ? <PasswordStrength password={password} /> : null}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Administration of users: list and search, create, edit, freeze / thaw, reset password, end
 * sessions; the accounts awaiting an organization and their assignment; invite codes.
 */
export default function UsersPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const can = useAccess();
  const { info } = useSession();
  const [query, setQuery] = useState({ page: 1, pageSize: 20, keyword: '', awaiting: false });
  const users = useUsers(query);
  const [editing, setEditing] = useState<{ user: UserView | null } | null>(null);
  const [resetting, setResetting] = useState<UserView | null>(null);
  const [assigning, setAssigning] = useState<UserView | null>(null);
  const [invitesOpen, setInvitesOpen] = useState(false);
  const act = useSystemMutation(
    ({ action, id }: { action: 'freeze' | 'thaw' | 'end-sessions'; id: string }) =>
      systemApi.userAction(action, { id }),
  );

  const run = (action: 'freeze' | 'thaw' | 'end-sessions', user: UserView) => {
    void modal.confirm({
      title: t(`system.user.confirm.${action}`, { name: user.username }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () =>
        act.mutateAsync({ action, id: user.id }).then(
          () => void message.success(t(`system.user.done.${action}`)),
          (error: unknown) => {
            const text = errorMessage(error);
            if (text) void message.error(text);
          },
        ),
    });
  };

  const actionsFor = (user: UserView) => {
    const items = [
      can('user.edit') ? { key: 'reset', label: t('system.user.resetPasswordShort') } : null,
      can('user.edit') ? { key: 'end-sessions', label: t('system.user.endSessions') } : null,
      user.status === 'frozen'
        ? can('user.enable') && { key: 'thaw', label: t('system.user.thaw') }
        : can('user.disable') &&
          user.id !== info.id && { key: 'freeze', label: t('system.user.freeze'), danger: true },
    ].filter((item): item is NonNullable<typeof item> & object => Boolean(item));
    return items;
  };

  return (
    <PageContainer
      title={t('menu.system.users')}
      extra={
        <Access check="user.add">
          <Space wrap>
            <Button
              icon={<KeyOutlined />}
              onClick={() => setInvitesOpen(true)}
              data-testid="invites-open"
            >
              {t('invite.manage')}
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ user: null })}
              data-testid="user-create"
            >
              {t('system.user.create')}
            </Button>
          </Space>
        </Access>
      }
    >
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            placeholder={t('system.user.search')}
            style={{ maxWidth: 360 }}
            onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword: keyword.trim() }))}
            data-testid="user-search"
          />
          <Segmented
            value={query.awaiting ? 'awaiting' : 'all'}
            options={[
              { value: 'all', label: t('system.user.filter.all') },
              { value: 'awaiting', label: t('system.user.filter.awaiting') },
            ]}
            onChange={(value) =>
              setQuery((q) => ({ ...q, page: 1, awaiting: value === 'awaiting' }))
            }
            data-testid="user-filter"
          />
        </Space>
        <Table<UserView>
          rowKey="id"
          size="middle"
          loading={users.isFetching}
          dataSource={users.data?.list ?? []}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: users.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('common.total', { total }),
            onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
          }}
          columns={[
            { key: 'username', title: t('account.username'), dataIndex: 'username' },
            { key: 'name', title: t('account.name'), dataIndex: 'name' },
            {
              key: 'role',
              title: t('account.role'),
              render: (_v, user) => roleLabel(user.role.name),
            },
            {
              key: 'org',
              title: t('account.organization'),
              render: (_v, user) => user.organization?.name ?? '—',
            },
            {
              key: 'status',
              title: t('system.user.status'),
              render: (_v, user) => (
                <Tag color={STATUS_COLOR[user.status]}>
                  {t(`system.user.status.${user.status}`)}
                </Tag>
              ),
            },
            { key: 'email', title: t('account.email'), render: (_v, user) => user.email ?? '—' },
            { key: 'mobile', title: t('account.mobile'), render: (_v, user) => user.mobile ?? '—' },
            {
              key: 'lastLogin',
              title: t('system.user.lastLogin'),
              render: (_v, user) =>
                user.lastLoginAt ? dayjs(user.lastLoginAt).format('YYYY-MM-DD HH:mm') : '—',
            },
            {
              key: 'actions',
              title: t('common.actions'),
              fixed: 'right',
              render: (_v, user) => {
                const items = actionsFor(user);
                return (
                  <Space size={4}>
                    {user.organization === null && user.id !== info.id ? (
                      <Access check="user.edit">
                        <Button
                          size="small"
                          type="link"
                          onClick={() => setAssigning(user)}
                          data-testid="user-assign"
                        >
                          {t('system.user.assign')}
                        </Button>
                      </Access>
                    ) : null}
                    <Access check="user.edit">
                      <Button size="small" type="link" onClick={() => setEditing({ user })}>
                        {t('common.edit')}
                      </Button>
                    </Access>
                    {items.length > 0 ? (
                      <Dropdown
                        trigger={['click']}
                        menu={{
                          items,
                          onClick: ({ key }) =>
                            key === 'reset'
                              ? setResetting(user)
                              : run(key as 'freeze' | 'thaw' | 'end-sessions', user),
                        }}
                      >
                        <Button
                          size="small"
                          type="text"
                          icon={<MoreOutlined />}
                          aria-label={t('common.more')}
                        />
                      </Dropdown>
                    ) : null}
                  </Space>
                );
              },
            },
          ]}
        />
      </Card>
      <UserFormModal
        open={editing !== null}
        user={editing?.user ?? null}
        onClose={() => setEditing(null)}
      />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
      <AssignUserModal user={assigning} onClose={() => setAssigning(null)} />
      <InvitesDrawer open={invitesOpen} onClose={() => setInvitesOpen(false)} />
    </PageContainer>
  );
}
