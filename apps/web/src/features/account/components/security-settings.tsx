import { useState } from 'react';
import { App, Button, List, Popconfirm, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SessionView } from '@liftlink/protocol';
import { errorMessage } from '../../../lib/form-errors.ts';
import { logout, useSession } from '../../../lib/session.ts';
import { useRevokeSession, useSessions } from '../api/account-api.ts';
import { ChangePasswordModal } from './change-password-modal.tsx';

/** A short readable name for a browser's user agent. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : '';
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return [browser, system].filter(Boolean).join(' · ') || userAgent.slice(0, 40);
}

/** Security: password, bound email / mobile, active sessions with revoke. */
export function SecuritySettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { info } = useSession();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const [passwordOpen, setPasswordOpen] = useState(false);

  const onRevoke = (session: SessionView) =>
    revoke.mutateAsync(session.id).then(
      async () => {
        if (session.current) {
          await logout();
          await navigate('/user/login', { replace: true });
          return;
        }
        void message.success(t('account.sessionRevoked'));
      },
      (error: unknown) => {
        const text = errorMessage(error);
        if (text) void message.error(text);
      },
    );

  return (
    <div data-testid="security-settings">
      <List
        itemLayout="horizontal"
        dataSource={[
          {
            key: 'password',
            title: t('account.password'),
            text: t('account.passwordText'),
            action: () => {
              setPasswordOpen(true);
            },
            label: t('common.edit'),
          },
          {
            key: 'email',
            title: t('account.email'),
            text: info.email ? t('account.boundTo', { value: info.email }) : t('account.notBound'),
            action: () => {
              void navigate('/account/settings/binding');
            },
            label: info.email ? t('common.edit') : t('account.bind'),
          },
          {
            key: 'mobile',
            title: t('account.mobile'),
            text: info.mobile
              ? t('account.boundTo', { value: info.mobile })
              : t('account.notBound'),
            action: () => {
              void navigate('/account/settings/binding');
            },
            label: info.mobile ? t('common.edit') : t('account.bind'),
          },
        ]}
        renderItem={(item) => (
          <List.Item
            actions={[
              <Button
                key="go"
                type="link"
                onClick={item.action}
                data-testid={`security-${item.key}`}
              >
                {item.label}
              </Button>,
            ]}
          >
            <List.Item.Meta title={item.title} description={item.text} />
          </List.Item>
        )}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('account.sessions')}
      </Typography.Title>
      <Table<SessionView>
        rowKey="id"
        size="small"
        loading={sessions.isFetching}
        dataSource={sessions.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="sessions"
        columns={[
          {
            key: 'device',
            title: t('account.sessionDevice'),
            render: (_v, s) => (
              <>
                {deviceOf(s.userAgent)}{' '}
                {s.current ? <Tag color="green">{t('account.sessionCurrent')}</Tag> : null}
              </>
            ),
          },
          { key: 'ip', title: t('account.sessionIp'), render: (_v, s) => s.ip ?? '—' },
          {
            key: 'created',
            title: t('account.sessionCreated'),
            render: (_v, s) => dayjs(s.createdAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            key: 'seen',
            title: t('account.sessionSeen'),
            render: (_v, s) => dayjs(s.lastSeenAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_v, s) => (
              <Popconfirm
                title={s.current ? t('account.revokeCurrent') : t('account.revokeConfirm')}
                okText={t('common.ok')}
                cancelText={t('common.cancel')}
                onConfirm={() => onRevoke(s)}
              >
                <Button size="small" type="link" danger data-testid="revoke-session">
                  {t('account.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
