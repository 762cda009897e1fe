import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export type ExceptionStatus = '403' | '404' | '500';

/** The exception pages of spec section 8 (403, 404, 500), with a way back home. */
export function ExceptionResult({
  status,
  home = '/',
  onRetry,
}: {
  status: ExceptionStatus;
  home?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={status}
      subTitle={t(`exception.${status}`)}
      extra={
        <>
          <Button type="primary" onClick={() => void navigate(home)}>
            {t('exception.backHome')}
          </Button>
          {onRetry ? <Button onClick={onRetry}>{t('exception.retry')}</Button> : null}
        </>
      }
    />
  );
}
