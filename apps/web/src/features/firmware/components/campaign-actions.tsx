import { App, Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import {
  CheckOutlined,
  CloseCircleOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../lib/access.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { useOptionalSession } from '../../../lib/session.ts';
import {
  useCampaignAction,
  type CampaignAction,
  type FirmwareCampaign,
} from '../api/campaign-api.ts';
import { campaignActions } from '../model/campaign-model.ts';

/**
 * Approve, pause, resume and cancel, as the campaign's state and the user allow. The author
 * sees approve disabled, with the reason written beside it (a tooltip alone is not seen on
 * a phone). Cancel asks first: the lifts not yet offered the package will not be.
 */
export function CampaignActions({ campaign }: { campaign: FirmwareCampaign }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useAccess();
  const userId = useOptionalSession()?.info.id ?? null;
  const act = useCampaignAction();
  const allowed = campaignActions(campaign, userId, can('firmware.add'));

  const run = (action: CampaignAction) =>
    act.mutateAsync({ action, id: campaign.id }).then(
      () => void message.success(t(`firmware.campaign.done.${action}`)),
      (error: unknown) => showError(message, error),
    );
  const busy = (action: CampaignAction) => act.isPending && act.variables.action === action;

  if (
    !allowed.approve &&
    !allowed.approveBlocked &&
    !allowed.pause &&
    !allowed.resume &&
    !allowed.cancel
  )
    return null;
  return (
    <Space size={8} wrap className="campaign-actions" data-testid="campaign-actions">
      {allowed.approve || allowed.approveBlocked ? (
        <Tooltip title={allowed.approveBlocked ? t('firmware.campaign.approveOwn') : null}>
          <span>
            <Button
              type="primary"
              icon={<CheckOutlined />}
              disabled={!allowed.approve}
              loading={busy('approve')}
              onClick={() => void run('approve')}
              data-testid="campaign-approve"
            >
              {t('firmware.campaign.approve')}
            </Button>
          </span>
        </Tooltip>
      ) : null}
      {allowed.approveBlocked ? (
        <Typography.Text type="secondary" data-testid="campaign-approve-own">
          {t('firmware.campaign.approveOwn')}
        </Typography.Text>
      ) : null}
      {allowed.pause ? (
        <Button
          icon={<PauseCircleOutlined />}
          loading={busy('pause')}
          onClick={() => void run('pause')}
          data-testid="campaign-pause"
        >
          {t('firmware.campaign.pause')}
        </Button>
      ) : null}
      {allowed.resume ? (
        <Button
          type="primary"
          icon={<PlayCircleOutlined />}
          loading={busy('resume')}
          onClick={() => void run('resume')}
          data-testid="campaign-resume"
        >
          {t('firmware.campaign.resume')}
        </Button>
      ) : null}
      {allowed.cancel ? (
        <Popconfirm
          title={<div className="campaign-confirm">{t('firmware.campaign.cancelConfirm')}</div>}
          okText={t('firmware.campaign.cancel')}
          okButtonProps={{ danger: true }}
          cancelText={t('firmware.campaign.keep')}
          onConfirm={() => run('cancel')}
        >
          <Button
            danger
            icon={<CloseCircleOutlined />}
            loading={busy('cancel')}
            data-testid="campaign-cancel"
          >
            {t('firmware.campaign.cancel')}
          </Button>
        </Popconfirm>
      ) : null}
    </Space>
  );
}
