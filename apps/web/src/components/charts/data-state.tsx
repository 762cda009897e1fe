import type { ReactNode } from 'react';
import { Alert, Button, Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/form-errors.ts';

/** A failed load with a retry button. */
export function LoadError({
  error,
  onRetry,
  className,
}: {
  error: unknown;
  onRetry: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      className={className}
      title={errorMessage(error) ?? t('panel.loadFailed')}
      action={
        <Button size="small" onClick={onRetry}>
          {t('exception.retry')}
        </Button>
      }
      data-testid="panel-error"
    />
  );
}

/** Loading, error (with retry) and empty states around a panel's content. */
export function DataState({
  loading,
  error,
  empty,
  onRetry,
  emptyText,
  children,
}: {
  loading: boolean;
  error: unknown;
  empty: boolean;
  onRetry: () => void;
  emptyText?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (loading)
    return (
      <div style={{ display: 'flex', justifyContent: 'center', padding: '48px 0' }} role="status">
        <Spin />
      </div>
    );
  if (error) return <LoadError error={error} onRetry={onRetry} />;
  if (empty)
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText ?? t('panel.noData')} />
    );
  return <>{children}</>;
}
