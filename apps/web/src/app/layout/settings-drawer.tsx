import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { LayoutSettingsForm } from '../../components/layout-settings-form.tsx';

export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={onClose}
      size={320}
      placement="right"
      data-testid="settings-drawer"
    >
      <LayoutSettingsForm />
    </Drawer>
  );
}
