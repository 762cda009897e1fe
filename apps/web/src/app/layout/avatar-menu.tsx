import { useState } from 'react';
import { Avatar, Dropdown } from 'antd';
import { KeyOutlined, LogoutOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout, useSession } from '../../lib/session.ts';
import { OnceOpened } from '../../components/once-opened.tsx';
import { lazyPage } from '../../lib/lazy.ts';
import { useApp } from '../../lib/use-app.ts';

// The dialog (a form with zod rules) downloads when it is first opened.
const ChangePasswordModal = lazyPage(() =>
  import('../../features/account/components/change-password-modal.tsx').then((module) => ({
    default: module.ChangePasswordModal,
  })),
);

/** Avatar dropdown (spec section 2): change password, account settings, logout with confirmation. */
export function AvatarMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const { modal } = useApp();
  const navigate = useNavigate();
  const { info } = useSession();
  const [passwordOpen, setPasswordOpen] = useState(false);

  const confirmLogout = () => {
    void modal.confirm({
      title: t('layout.logout.title'),
      content: t('layout.logout.confirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout();
        await navigate('/user/login', { replace: true });
      },
    });
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'password', icon: <KeyOutlined />, label: t('layout.changePassword') },
            { key: 'settings', icon: <SettingOutlined />, label: t('layout.accountSettings') },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: t('layout.logout'), danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'password') setPasswordOpen(true);
            else if (key === 'settings') void navigate('/account/settings/basic');
            else confirmLogout();
          },
        }}
      >
        <button
          type="button"
          className="header-action avatar-trigger"
          data-testid="avatar-menu"
          aria-label={t('layout.accountMenu')}
        >
          <Avatar size="small" src={info.avatar || undefined} className="header-avatar">
            {(info.name || info.username).slice(0, 1).toUpperCase()}
          </Avatar>
          {compact ? null : <span className="header-username">{info.name || info.username}</span>}
        </button>
      </Dropdown>
      <OnceOpened open={passwordOpen}>
        <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      </OnceOpened>
    </>
  );
}
