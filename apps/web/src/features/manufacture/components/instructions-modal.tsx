import { Modal, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const STEPS = [
  'connect',
  'open',
  'handshake',
  'assign',
  'credentials',
  'configure',
  'online',
] as const;

/** Usage instructions of the bench (spec: usage instructions). */
export function InstructionsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('manufacture.help.title')}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      width={640}
    >
      <Typography.Paragraph>{t('manufacture.help.intro')}</Typography.Paragraph>
      <Steps
        direction="vertical"
        size="small"
        current={-1}
        items={STEPS.map((step) => ({
          title: t(`manufacture.help.${step}.title`),
          description: t(`manufacture.help.${step}.text`),
        }))}
      />
      <Typography.Title level={5}>{t('manufacture.help.pluginTitle')}</Typography.Title>
      <Typography.Paragraph>{t('manufacture.help.plugin')}</Typography.Paragraph>
    </Modal>
  );
}
