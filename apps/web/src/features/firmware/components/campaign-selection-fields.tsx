import { Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { firmwareCampaignSelectionSchema, type DeviceKind } from '@liftlink/protocol';
import { useAccess } from '../../../lib/access.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useOperatorOrgs } from '../api/campaign-api.ts';

const selection = firmwareCampaignSelectionSchema.shape;

/**
 * Which lifts of "New campaign": kinds among the package's, the versions they run, their
 * operator organizations; each left empty narrows nothing. The organizations are listed
 * only to a user who may read them (`org.query`); for others the filter is left out.
 */
export function CampaignSelectionFields({ packageKinds }: { packageKinds: readonly DeviceKind[] }) {
  const { t } = useTranslation();
  const can = useAccess();
  const mayListOrgs = can('org.query');
  const orgs = useOperatorOrgs(mayListOrgs);

  return (
    <>
      <Typography.Title level={5}>{t('firmware.campaign.selection')}</Typography.Title>
      <Form.Item
        name="kinds"
        label={t('firmware.kinds')}
        extra={t('firmware.campaign.kindsHelp')}
        rules={[zodRule(selection.kinds)]}
      >
        <Select
          mode="multiple"
          allowClear
          aria-label={t('firmware.kinds')}
          disabled={packageKinds.length === 0}
          options={packageKinds.map((kind) => ({ value: kind, label: t(`device.kind.${kind}`) }))}
          optionFilterProp="label"
        />
      </Form.Item>
      <Form.Item
        name="fromVersions"
        label={t('firmware.campaign.fromVersions')}
        extra={t('firmware.campaign.fromVersionsHelp')}
        rules={[zodRule(selection.fromVersions)]}
      >
        <Select
          mode="tags"
          allowClear
          aria-label={t('firmware.campaign.fromVersions')}
          tokenSeparators={[',', ' ']}
          notFoundContent={null}
        />
      </Form.Item>
      {mayListOrgs && !orgs.isError ? (
        <Form.Item
          name="operatorOrgIds"
          label={t('firmware.campaign.operatorOrgs')}
          extra={t('firmware.campaign.operatorOrgsHelp')}
          rules={[zodRule(selection.operatorOrgIds)]}
        >
          <Select
            mode="multiple"
            allowClear
            loading={orgs.isPending}
            aria-label={t('firmware.campaign.operatorOrgs')}
            options={(orgs.data ?? []).map((org) => ({ value: org.id, label: org.name }))}
            optionFilterProp="label"
          />
        </Form.Item>
      ) : null}
    </>
  );
}
