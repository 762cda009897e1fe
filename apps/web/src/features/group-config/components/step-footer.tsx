import type { ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/form-errors.ts';

/**
 * The bottom of a step: the error of its last request (if any), then its actions, Back first
 * (when the step has one) and the step's own action last, at the right.
 */
export function StepFooter({
  error,
  errorTestId,
  onBack,
  children,
}: {
  error?: unknown;
  errorTestId?: string;
  onBack?: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <Alert
          type="error"
          showIcon
          title={errorMessage(error)}
          className="group-config-alert"
          data-testid={errorTestId}
        />
      ) : null}
      <div className="group-config-actions">
        {onBack ? <Button onClick={onBack}>{t('groupConfig.back')}</Button> : null}
        {children}
      </div>
    </>
  );
}
