import { useState } from 'react';
import { Alert, Button, Form, Input, Select, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RuleObject } from 'antd/es/form';
import {
  DEVICE_KINDS,
  FIRMWARE_MAX_BYTES,
  FIRMWARE_NOTES_MAX,
  LANGUAGES,
  firmwareAtLeast,
  firmwarePackageCreateSchema,
  firmwareReleaseNotesSchema,
  firmwareVersionSchema,
  type FirmwarePackage,
} from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { firmwareApi, useRefreshPackages } from '../api/firmware-api.ts';
import {
  createRequest,
  formatBytes,
  imageProblem,
  publishPackage,
  type PackageFormValues,
  type PublishPhase,
} from '../model/package-model.ts';

interface Values extends PackageFormValues {
  file?: UploadFile[];
}

const { shape } = firmwarePackageCreateSchema;
const noteShape = firmwareReleaseNotesSchema.shape;

/** The chosen file as the browser gave it (antd keeps it as `originFileObj`). */
const chosenFile = (list: UploadFile[] | undefined): File | undefined => list?.[0]?.originFileObj;

/**
 * "New package": lift kinds, version, minimum version, release notes in three languages and
 * the image; creates the package, then uploads the image. An image that is empty or too
 * large is refused here before anything is sent. When the upload fails after the package was
 * created, the next attempt uploads only. The page mounts it afresh (a new key) each time it
 * opens, so nothing of a previous package is left.
 */
export function NewPackageModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [form] = Form.useForm<Values>();
  const refresh = useRefreshPackages();
  const [phase, setPhase] = useState<PublishPhase | null>(null);
  const [created, setCreated] = useState<FirmwarePackage | null>(null);
  const max = formatBytes(FIRMWARE_MAX_BYTES, language);
  const file = chosenFile(Form.useWatch('file', form));

  const imageRule: RuleObject = {
    validator: async (_rule, value: UploadFile[] | undefined) => {
      const problem = imageProblem(chosenFile(value));
      if (problem) throw new Error(t(`firmware.image.${problem}`, { max }));
    },
  };
  const minimumRule = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: async (_rule: unknown, minimum: unknown) => {
      const version = getFieldValue('version');
      if (typeof version !== 'string' || typeof minimum !== 'string') return;
      const v = version.trim();
      const m = minimum.trim();
      if (firmwareVersionSchema.safeParse(v).success && firmwareVersionSchema.safeParse(m).success)
        if (!firmwareAtLeast(v, m)) throw new Error(t('firmware.minAboveVersion'));
    },
  });

  const save = async (values: Values) => {
    const image = chosenFile(values.file);
    if (!image) return;
    try {
      await publishPackage(firmwareApi, createRequest(values), image, {
        created,
        onPhase: setPhase,
        onCreated: (pkg) => {
          setCreated(pkg);
          void refresh();
        },
      });
    } finally {
      setPhase(null);
    }
    await refresh();
  };

  return (
    <FormModal<Values>
      open={open}
      title={t('firmware.new')}
      form={form}
      save={save}
      onClose={onClose}
      width={640}
      testId="firmware-new"
      okText={t('firmware.createAndUpload')}
      texts={{ saved: t('firmware.published') }}
    >
      {created ? (
        <Alert
          type="warning"
          showIcon
          className="firmware-modal-alert"
          title={t('firmware.retryUpload')}
          data-testid="firmware-retry-upload"
        />
      ) : null}
      <Form.Item name="kinds" label={t('firmware.kinds')} rules={[zodRule(shape.kinds)]}>
        <Select
          mode="multiple"
          disabled={created !== null}
          aria-label={t('firmware.kinds')}
          options={DEVICE_KINDS.map((kind) => ({ value: kind, label: t(`device.kind.${kind}`) }))}
          optionFilterProp="label"
        />
      </Form.Item>
      <div className="firmware-versions">
        <Form.Item
          name="version"
          label={t('firmware.version')}
          rules={[zodRule(firmwareVersionSchema)]}
          className="firmware-version-item"
        >
          <Input
            disabled={created !== null}
            aria-label={t('firmware.version')}
            placeholder={t('firmware.version')}
            autoComplete="off"
          />
        </Form.Item>
        <Form.Item
          name="minVersion"
          label={t('firmware.minVersion')}
          tooltip={t('firmware.minVersionHelp')}
          dependencies={['version']}
          rules={[zodRule(shape.minVersion), minimumRule]}
          className="firmware-version-item"
        >
          <Input
            disabled={created !== null}
            aria-label={t('firmware.minVersion')}
            placeholder={t('firmware.minVersion')}
            autoComplete="off"
          />
        </Form.Item>
      </div>
      {LANGUAGES.map((l) => (
        <Form.Item
          key={l}
          name={['releaseNotes', l]}
          label={t(`firmware.notes.${l}`)}
          rules={[zodRule(noteShape[l])]}
        >
          <Input.TextArea
            disabled={created !== null}
            aria-label={t(`firmware.notes.${l}`)}
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={FIRMWARE_NOTES_MAX}
            showCount
          />
        </Form.Item>
      ))}
      <Form.Item
        name="file"
        label={t('firmware.image')}
        extra={
          phase === 'uploading' && file
            ? t('firmware.phase.uploading', { size: formatBytes(file.size, language) })
            : phase === 'creating'
              ? t('firmware.phase.creating')
              : t('firmware.imageHelp', { max })
        }
        valuePropName="fileList"
        getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
        rules={[imageRule]}
      >
        <Upload maxCount={1} beforeUpload={() => false}>
          <Button icon={<UploadOutlined />} loading={phase !== null}>
            {t('firmware.chooseImage')}
          </Button>
        </Upload>
      </Form.Item>
    </FormModal>
  );
}
