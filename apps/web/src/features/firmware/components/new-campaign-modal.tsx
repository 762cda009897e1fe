import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CAMPAIGN_NAME_MAX, firmwareCampaignCreateSchema } from '@liftlink/protocol';
import { applyServerIssues, showError } from '../../../lib/form-errors.ts';
import { useFormSubmit } from '../../../lib/use-form-submit.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import {
  useCreateCampaign,
  usePreviewCampaign,
  type FirmwareCampaignPreview,
} from '../api/campaign-api.ts';
import { useFirmwarePackages } from '../api/firmware-api.ts';
import {
  campaignRequest,
  defaultFormValues,
  type CampaignFormValues,
} from '../model/campaign-model.ts';
import { CampaignPlanFields } from './campaign-plan-fields.tsx';
import { CampaignPreview } from './campaign-preview.tsx';
import { CampaignSelectionFields } from './campaign-selection-fields.tsx';

const { shape } = firmwareCampaignCreateSchema;

/**
 * "New campaign": name, a ready package, which lifts and the rollout plan (defaults of the
 * protocol), checked with the shared schema. "Preview" asks the server what the selection
 * comes to; "Create" is offered only for the values previewed, so nobody creates a campaign
 * for lifts they have not counted. Any change of a value asks for a new preview. The page
 * mounts it afresh (a new key) each time it opens.
 */
export function NewCampaignModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CampaignFormValues>();
  const packages = useFirmwarePackages('ready');
  const preview = usePreviewCampaign();
  const create = useCreateCampaign();
  const [previewed, setPreviewed] = useState<FirmwareCampaignPreview | null>(null);
  const packageId = Form.useWatch('packageId', form);
  const chosen = packages.data?.list.find((p) => p.id === packageId);

  const submit = useFormSubmit(
    form,
    (values: CampaignFormValues) => create.mutateAsync(campaignRequest(values)),
    onClose,
    { saved: t('firmware.campaign.created') },
  );

  const runPreview = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      setPreviewed(await preview.mutateAsync(campaignRequest(values)));
    } catch (error) {
      if (!applyServerIssues(form, error)) showError(message, error);
    }
  };

  return (
    <Modal
      open={open}
      title={t('firmware.campaign.new')}
      width={720}
      onCancel={onClose}
      forceRender
      data-testid="campaign-new"
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="preview"
          icon={<EyeOutlined />}
          loading={preview.isPending}
          onClick={() => void runPreview()}
          data-testid="campaign-preview-button"
        >
          {t('firmware.campaign.preview')}
        </Button>,
        <Button
          key="create"
          type="primary"
          disabled={!previewed || previewed.liftCount === 0}
          loading={create.isPending}
          onClick={() => void submit()}
          data-testid="campaign-create"
        >
          {t('firmware.campaign.create')}
        </Button>,
      ]}
    >
      <Form<CampaignFormValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={defaultFormValues()}
        // A preview holds for the values it was asked for only.
        onValuesChange={(changed: Partial<CampaignFormValues>) => {
          setPreviewed(null);
          // Kinds are among the package's: another package starts them afresh.
          if ('packageId' in changed) form.setFieldValue('kinds', []);
        }}
        className="campaign-form"
      >
        <Form.Item name="name" label={t('firmware.campaign.name')} rules={[zodRule(shape.name)]}>
          <Input
            aria-label={t('firmware.campaign.name')}
            maxLength={CAMPAIGN_NAME_MAX}
            autoComplete="off"
          />
        </Form.Item>
        <Form.Item
          name="packageId"
          label={t('firmware.campaign.package')}
          extra={t('firmware.campaign.packageHelp')}
          rules={[zodRule(shape.packageId)]}
        >
          <Select
            aria-label={t('firmware.campaign.package')}
            loading={packages.isPending}
            showSearch
            optionFilterProp="label"
            options={(packages.data?.list ?? []).map((p) => ({
              value: p.id,
              label: `${p.version} · ${p.orgName}`,
            }))}
          />
        </Form.Item>
        <CampaignSelectionFields packageKinds={chosen?.kinds ?? []} />
        <CampaignPlanFields />
      </Form>
      <CampaignPreview preview={previewed} />
    </Modal>
  );
}
