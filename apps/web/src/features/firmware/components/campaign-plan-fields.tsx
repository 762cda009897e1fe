import { Form, InputNumber, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RuleObject } from 'antd/es/form';
import {
  CAMPAIGN_CANARY_MAX,
  CAMPAIGN_PAUSE_MAX_MINUTES,
  CAMPAIGN_WAVE_MAX,
  campaignPlanSchema,
  campaignWindowSchema,
} from '@liftlink/protocol';
import { zodRule } from '../../../lib/zod-rule.ts';
import { clockHour } from '../../../components/firmware-update/lift-update-model.ts';

const plan = campaignPlanSchema.shape;
const windowShape = campaignWindowSchema.shape;
const HOURS = Array.from({ length: 24 }, (_, hour) => ({ value: hour, label: clockHour(hour) }));

/**
 * The rollout plan of "New campaign": canary count, wave size, pause, failure threshold and
 * the installation window (any time, or from one hour to another of each lift's local time),
 * checked with the shared plan schema.
 */
export function CampaignPlanFields() {
  const { t } = useTranslation();
  const anyTime = Form.useWatch<boolean | undefined>('anyTime');

  // The window's own check (its end differs from its start), with a text that says so.
  const windowRule = ({
    getFieldValue,
  }: {
    getFieldValue: (name: string) => unknown;
  }): RuleObject => ({
    validator: async (_rule, endHour: unknown) => {
      const startHour = getFieldValue('startHour');
      if (typeof startHour !== 'number' || typeof endHour !== 'number') return;
      if (!campaignWindowSchema.safeParse({ startHour, endHour }).success)
        throw new Error(t('firmware.campaign.windowSame'));
    },
  });

  const number = (
    name: 'canaryCount' | 'waveSize' | 'wavePauseMinutes' | 'failureThresholdPercent',
    label: string,
    max: number,
    help?: string,
  ) => (
    <Form.Item
      name={name}
      label={label}
      tooltip={help}
      rules={[zodRule(plan[name])]}
      className="firmware-version-item"
    >
      <InputNumber
        min={name === 'canaryCount' || name === 'waveSize' ? 1 : 0}
        max={max}
        precision={0}
        className="campaign-number"
        aria-label={label}
      />
    </Form.Item>
  );

  return (
    <>
      <Typography.Title level={5}>{t('firmware.campaign.plan')}</Typography.Title>
      <div className="firmware-versions">
        {number('canaryCount', t('firmware.campaign.canaryCount'), CAMPAIGN_CANARY_MAX)}
        {number('waveSize', t('firmware.campaign.waveSize'), CAMPAIGN_WAVE_MAX)}
        {number('wavePauseMinutes', t('firmware.campaign.wavePause'), CAMPAIGN_PAUSE_MAX_MINUTES)}
        {number(
          'failureThresholdPercent',
          t('firmware.campaign.threshold'),
          100,
          t('firmware.campaign.thresholdHelp'),
        )}
      </div>
      <Form.Item
        label={t('firmware.campaign.window')}
        extra={anyTime ? undefined : t('firmware.campaign.windowNote')}
      >
        <label className="firmware-line">
          <Form.Item name="anyTime" valuePropName="checked" noStyle>
            <Switch data-testid="campaign-any-time" />
          </Form.Item>
          <span>{t('firmware.campaign.anyTime')}</span>
        </label>
      </Form.Item>
      {anyTime ? null : (
        <div className="firmware-versions">
          <Form.Item
            name="startHour"
            label={t('firmware.campaign.startHour')}
            rules={[zodRule(windowShape.startHour)]}
            className="firmware-version-item"
          >
            <Select options={HOURS} aria-label={t('firmware.campaign.startHour')} />
          </Form.Item>
          <Form.Item
            name="endHour"
            label={t('firmware.campaign.endHour')}
            dependencies={['startHour']}
            rules={[zodRule(windowShape.endHour), windowRule]}
            className="firmware-version-item"
          >
            <Select options={HOURS} aria-label={t('firmware.campaign.endHour')} />
          </Form.Item>
        </div>
      )}
    </>
  );
}
