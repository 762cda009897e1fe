import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  INCIDENT_PRIORITIES,
  incidentCreateSchema,
  type IncidentPriority,
} from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { LiftPicker } from '../../../components/lift-picker.tsx';
import { zodRule } from '../../../lib/zod-rule.ts';
import { incidentsApi, useIncidentMutation } from '../api/incidents-api.ts';

interface CreateValues {
  liftId: string | null;
  title: string;
  priority: IncidentPriority;
}

/** Someone opens an incident by hand: which lift, what they saw, how urgent; then its page opens. */
export function CreateIncidentModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<CreateValues>();
  const create = useIncidentMutation(incidentsApi.create);
  return (
    <FormModal<CreateValues>
      open={open}
      title={t('incident.create')}
      form={form}
      initialValues={{ liftId: null, title: '', priority: 'normal' }}
      texts={{ saved: t('incident.created') }}
      okText={t('incident.create')}
      save={async (values) => {
        const incident = await create.mutateAsync({
          liftId: values.liftId ?? '',
          title: values.title,
          priority: values.priority,
        });
        void navigate(`/lift/incidents/${incident.id}`);
      }}
      onClose={onClose}
      testId="incident-create-modal"
    >
      <Form.Item
        name="liftId"
        label={t('incident.field.lift')}
        rules={[zodRule(incidentCreateSchema.shape.liftId)]}
      >
        <LiftPickerField testId="incident-create-lift" placeholder={t('incident.field.liftHint')} />
      </Form.Item>
      <Form.Item
        name="title"
        label={t('incident.field.title')}
        rules={[zodRule(incidentCreateSchema.shape.title)]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('incident.field.titleHint')}
          data-testid="incident-create-title"
        />
      </Form.Item>
      <Form.Item name="priority" label={t('incident.field.priority')}>
        <Select<IncidentPriority>
          size="large"
          options={INCIDENT_PRIORITIES.map((p) => ({
            value: p,
            label: t(`incident.priority.${p}`),
          }))}
          data-testid="incident-create-priority"
        />
      </Form.Item>
    </FormModal>
  );
}

/** The shared picker as a form control (antd passes value and onChange). */
function LiftPickerField({
  value,
  onChange,
  testId,
  placeholder,
}: {
  value?: string | null;
  onChange?: (liftId: string | null) => void;
  testId?: string;
  placeholder?: string;
}) {
  return (
    <LiftPicker
      value={value ?? null}
      onChange={(id) => onChange?.(id)}
      testId={testId}
      placeholder={placeholder}
    />
  );
}
