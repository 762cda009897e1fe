import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { liftLocationSchema, type LiftListItem, type LiftLocation } from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { liftsApi, useLiftEdit } from '../api/lifts-api.ts';

type LocationForm = {
  address?: string;
  site?: string;
  latitude?: number | null;
  longitude?: number | null;
  contact?: string;
  notes?: string;
};

/** Drops empty fields: the server's schema is strict and an empty text means "not given". */
export function toLocation(values: LocationForm): LiftLocation {
  const text = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);
  const num = (v: number | null | undefined) => (typeof v === 'number' ? v : undefined);
  const location: LiftLocation = { address: values.address?.trim() ?? '' };
  const optional = {
    site: text(values.site),
    latitude: num(values.latitude),
    longitude: num(values.longitude),
    contact: text(values.contact),
    notes: text(values.notes),
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) (location as Record<string, unknown>)[key] = value;
  return location;
}

const shape = liftLocationSchema.shape;

/** The location editor: address (required), site, coordinates, contact, notes. */
export function LocationModal({
  lift,
  onClose,
}: {
  lift: LiftListItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LocationForm>();
  const save = useLiftEdit(liftsApi.updateLocation);

  return (
    <FormModal
      open={lift !== null}
      title={t('lift.location.title', { name: lift?.alias || lift?.deviceNo || '' })}
      form={form}
      initialValues={lift ? { ...lift.location } : undefined}
      save={(values) => save.mutateAsync({ liftId: lift!.id, location: toLocation(values) })}
      onClose={onClose}
      testId="location-modal"
      requiredMark
      texts={{ saved: t('lift.location.saved'), failed: t('lift.location.saveFailed') }}
    >
      <Form.Item
        name="address"
        label={t('lift.location.address')}
        rules={[{ required: true, message: t('lift.location.missing') }, zodRule(shape.address)]}
        validateFirst
      >
        <Input maxLength={200} data-testid="location-address" />
      </Form.Item>
      <Form.Item name="site" label={t('lift.location.site')} rules={[zodRule(shape.site)]}>
        <Input maxLength={100} />
      </Form.Item>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        <Form.Item
          name="latitude"
          label={t('lift.location.latitude')}
          rules={[zodRule(shape.latitude)]}
          style={{ flex: '1 1 140px' }}
        >
          <InputNumber style={{ width: '100%' }} step={0.000001} />
        </Form.Item>
        <Form.Item
          name="longitude"
          label={t('lift.location.longitude')}
          rules={[zodRule(shape.longitude)]}
          style={{ flex: '1 1 140px' }}
        >
          <InputNumber style={{ width: '100%' }} step={0.000001} />
        </Form.Item>
      </div>
      <Form.Item name="contact" label={t('lift.location.contact')} rules={[zodRule(shape.contact)]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="notes" label={t('lift.location.notes')} rules={[zodRule(shape.notes)]}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
    </FormModal>
  );
}
