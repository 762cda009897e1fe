import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { showError } from '../../../lib/form-errors.ts';

/** "Delete" with a confirmation; says "Deleted" or why not. */
export function DeleteButton({ onDelete }: { onDelete: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Popconfirm
      title={t('common.confirmDelete')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onConfirm={() =>
        onDelete().then(
          () => void message.success(t('common.deleted')),
          (error: unknown) => showError(message, error),
        )
      }
    >
      <Button size="small" type="link" danger>
        {t('common.delete')}
      </Button>
    </Popconfirm>
  );
}
