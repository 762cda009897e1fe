import { Form, Select, Typography, type SelectProps } from 'antd';
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
      <SelectionFilter
        name="kinds"
        label={t('firmware.kinds')}
        help={t('firmware.campaign.kindsHelp')}
        mode="multiple"
        disabled={packageKinds.length === 0}
        options={packageKinds.map((kind) => ({ value: kind, label: t(`device.kind.${kind}`) }))}
        optionFilterProp="label"
      />
      <SelectionFilter
        name="fromVersions"
        label={t('firmware.campaign.fromVersions')}
        help={t('firmware.campaign.fromVersionsHelp')}
        mode="tags"
        tokenSeparators={[',', ' ']}
        notFoundContent={null}
      />
      {mayListOrgs && !orgs.isError ? (
        <SelectionFilter
          name="operatorOrgIds"
          label={t('firmware.campaign.operatorOrgs')}
          help={t('firmware.campaign.operatorOrgsHelp')}
          mode="multiple"
          loading={orgs.isPending}
          options={(orgs.data ?? []).map((org) => ({ value: org.id, label: org.name }))}
          optionFilterProp="label"
        />
      ) : null}
    </>
  );
}

/** One filter of the selection: a clearable Select under its label and help, checked by its rule. */
function SelectionFilter({
  name,
  label,
  help,
  ...select
}: { name: keyof typeof selection; label: string; help: string } & SelectProps) {
  return (
    <Form.Item name={name} label={label} extra={help} rules={[zodRule(selection[name])]}>
      <Select allowClear aria-label={label} {...select} />
    </Form.Item>
  );
}
