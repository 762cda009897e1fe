import { Card, Descriptions, Grid, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { useSigningKey } from '../api/firmware-api.ts';

/**
 * The organization's signing key, public half: what the factory bench writes into its
 * lifts. Shown to users who may provision devices (`manufacture.add`, the route's access).
 */
export function SigningKeyCard() {
  const { t } = useTranslation();
  const key = useSigningKey(true);
  // On a phone the labels sit above the values: a public key needs the whole width.
  const phone = Grid.useBreakpoint().md === false;
  return (
    <Card size="small" title={t('firmware.key.title')} data-testid="firmware-signing-key">
      <Typography.Paragraph type="secondary">{t('firmware.key.intro')}</Typography.Paragraph>
      {key.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : key.isError ? (
        <LoadError error={key.error} onRetry={() => void key.refetch()} />
      ) : (
        <Descriptions
          size="small"
          column={1}
          layout={phone ? 'vertical' : 'horizontal'}
          className="firmware-key"
        >
          <Descriptions.Item label={t('firmware.key.id')}>
            <Typography.Text code copyable data-testid="firmware-key-id">
              {key.data.keyId}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('firmware.key.public')}>
            <Typography.Text
              code
              copyable
              className="firmware-key-public"
              data-testid="firmware-public-key"
            >
              {key.data.publicKey}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('firmware.key.source')}>
            {t(`firmware.key.source.${key.data.source}`)}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
