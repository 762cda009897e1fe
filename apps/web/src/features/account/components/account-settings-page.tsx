import { Card, Grid, Menu, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LayoutSettingsForm } from '../../../components/layout-settings-form.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { BasicSettings } from './basic-settings.tsx';
import { BindingSettings } from './binding-settings.tsx';
import { NotificationSettings } from './notification-settings.tsx';
import { SecuritySettings } from './security-settings.tsx';
import { WebhookSettings } from './webhook-settings.tsx';

const SECTIONS = ['basic', 'security', 'custom', 'binding', 'notification', 'webhooks'] as const;
type Section = (typeof SECTIONS)[number];

function SectionBody({ section }: { section: Section }) {
  switch (section) {
    case 'security':
      return <SecuritySettings />;
    case 'custom':
      return <LayoutSettingsForm />;
    case 'binding':
      return <BindingSettings />;
    case 'notification':
      return <NotificationSettings />;
    case 'webhooks':
      return <WebhookSettings />;
    default:
      return <BasicSettings />;
  }
}

/** Account settings: basic, security, custom, binding, notification, and the organization's webhooks for who may edit its lifts' configuration (one route each). */
export default function AccountSettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const screens = Grid.useBreakpoint();
  const can = useAccess();
  const sections = SECTIONS.filter((key) => key !== 'webhooks' || can('liftConfig.edit'));
  const last = pathname.split('/').pop() ?? 'basic';
  const section: Section = (sections as readonly string[]).includes(last)
    ? (last as Section)
    : 'basic';
  const go = (key: string) => void navigate(`/account/settings/${key}`);
  const label = (key: Section) => tx(`menu.account.settings.${key}`);

  return (
    <PageContainer title={t('menu.account.settings')}>
      <Card styles={{ body: { padding: 0 } }}>
        <div
          className={`account-settings${screens.md === false ? ' account-settings-narrow' : ''}`}
        >
          {screens.md === false ? (
            <div className="account-settings-tabs">
              <Select
                style={{ width: '100%' }}
                options={sections.map((key) => ({ value: key, label: label(key) }))}
                value={section}
                onChange={(key) => go(key)}
                aria-label={t('menu.account.settings')}
                data-testid="settings-section"
              />
            </div>
          ) : (
            <Menu
              className="account-settings-menu"
              mode="inline"
              selectedKeys={[section]}
              items={sections.map((key) => ({ key, label: label(key) }))}
              onClick={({ key }) => go(key)}
            />
          )}
          <div className="account-settings-body">
            <h3 className="account-settings-title">{label(section)}</h3>
            <SectionBody section={section} />
          </div>
        </div>
      </Card>
    </PageContainer>
  );
}
