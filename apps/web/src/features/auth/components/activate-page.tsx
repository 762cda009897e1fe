import { Button, Result, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/form-errors.ts';
import { authApi } from '../api/auth-api.ts';

/** The page the activation mail links to: `/user/activate?token=...`. */
export default function ActivatePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // A query (not an effect) so that the one-time token is sent once, even in StrictMode.
  const activation = useQuery({
    queryKey: ['activate', token],
    queryFn: () => authApi.activate(token),
    enabled: token.length > 0,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  if (token.length > 0 && activation.isPending)
    return <Spin size="large" className="page-loading" />;
  const ok = activation.isSuccess;
  return (
    <Result
      status={ok ? 'success' : 'error'}
      title={ok ? t('activate.done') : t('activate.failed')}
      subTitle={
        ok
          ? t('activate.doneText')
          : ((activation.error ? errorMessage(activation.error) : null) ??
            t('errors.auth.tokenInvalid'))
      }
      extra={
        <Link to="/user/login">
          <Button type="primary">{t('recover.toLogin')}</Button>
        </Link>
      }
      data-testid="activate-result"
    />
  );
}
