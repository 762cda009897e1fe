import { Button } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Access } from '../../../lib/access.tsx';

interface StepButtonProps {
  onClick: () => unknown;
  loading: boolean;
  testId?: string;
}

/** "Read from device" of a settings tab. */
export function ReadButton({ onClick, loading, testId }: StepButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      icon={<DownloadOutlined />}
      onClick={() => void onClick()}
      loading={loading}
      data-testid={testId}
    >
      {t('manufacture.common.read')}
    </Button>
  );
}

/** "Write to device" of a settings tab; only for a role that may edit at the bench. */
export function WriteButton({ onClick, loading, testId }: StepButtonProps) {
  const { t } = useTranslation();
  return (
    <Access check="manufacture.edit">
      <Button
        type="primary"
        icon={<UploadOutlined />}
        onClick={() => void onClick()}
        loading={loading}
        data-testid={testId}
      >
        {t('manufacture.common.write')}
      </Button>
    </Access>
  );
}
