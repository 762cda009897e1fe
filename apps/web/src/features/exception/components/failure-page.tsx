import { Button, Card, Result, Typography } from 'antd';
import { CloseCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

/**
 * The failure result page (spec section 8): an account that is frozen (request to thaw)
 * or not yet eligible (not activated yet).
 */
export default function FailurePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const reason = params.get('reason') === 'pending' ? 'pending' : 'frozen';
  const account = params.get('account') ?? '';
  const mail = `mailto:?subject=${encodeURIComponent(t('failure.thawSubject'))}&body=${encodeURIComponent(t('failure.thawBody', { account }))}`;
  return (
    <div className="exception-page failure-page">
      <Card style={{ maxWidth: 720, margin: '48px auto' }}>
        <Result
          status="error"
          title={t('failure.title')}
          subTitle={t('failure.subtitle')}
          extra={
            <Link to="/user/login">
              <Button type="primary">{t('recover.toLogin')}</Button>
            </Link>
          }
          data-testid="failure-result"
        >
          <Typography.Paragraph strong>{t('failure.reasons')}</Typography.Paragraph>
          <Typography.Paragraph
            type={reason === 'frozen' ? 'danger' : undefined}
            data-testid="failure-frozen"
          >
            <CloseCircleOutlined /> {t('failure.frozen')}{' '}
            <a href={mail} data-testid="thaw-request">
              {t('failure.thaw')}
            </a>
          </Typography.Paragraph>
          <Typography.Paragraph type={reason === 'pending' ? 'danger' : undefined}>
            <CloseCircleOutlined /> {t('failure.notEligible')}{' '}
            <Link to="/user/login">{t('failure.upgrade')}</Link>
          </Typography.Paragraph>
        </Result>
      </Card>
    </div>
  );
}
