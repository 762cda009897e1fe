import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FirmwareCampaignPreview } from '../api/campaign-api.ts';
import { previewSummary } from '../model/campaign-model.ts';

/** What the selection and plan come to: lifts and stages in one sentence, the first lifts' numbers. */
export function CampaignPreview({ preview }: { preview: FirmwareCampaignPreview | null }) {
  const { t } = useTranslation();
  if (!preview)
    return (
      <Typography.Text type="secondary" data-testid="campaign-preview-first">
        {t('firmware.campaign.previewFirst')}
      </Typography.Text>
    );
  const summary = previewSummary(preview);
  const text =
    summary.kind === 'none'
      ? t('firmware.campaign.preview.none')
      : summary.kind === 'canaryOnly'
        ? t('firmware.campaign.preview.canaryOnly', { lifts: summary.lifts })
        : t('firmware.campaign.preview.waves', {
            lifts: summary.lifts,
            stages: summary.stages,
            canary: summary.canary,
            waves: summary.waves,
          });
  return (
    <Alert
      type={summary.kind === 'none' ? 'warning' : 'info'}
      showIcon
      data-testid="campaign-preview"
      title={text}
      description={
        preview.sample.length > 0 ? (
          <div className="campaign-sample">
            <span className="lift-muted">{t('firmware.campaign.sample')}</span>{' '}
            {preview.sample.join(', ')}
            {preview.liftCount > preview.sample.length ? ' …' : null}
          </div>
        ) : undefined
      }
    />
  );
}
