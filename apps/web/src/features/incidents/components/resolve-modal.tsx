import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  incidentTransitionSchema,
  pickText,
  ROOT_CAUSE_TEXTS,
  rootCausesFor,
  type IncidentView,
} from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { PartsListField } from '../../../components/parts-list-field.tsx';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import type { ResolutionInput } from '../api/incidents-api.ts';

interface ResolveValues {
  rootCause?: string;
  resolutionText?: string;
  partsUsed: string[];
}

/** Resolving names a root cause (the server refuses without one); the protocol's rules check each field. */
const rules = {
  rootCause: zodRule(incidentTransitionSchema.required({ rootCause: true }).shape.rootCause),
  resolutionText: zodRule(incidentTransitionSchema.shape.resolutionText),
  part: zodRule(incidentTransitionSchema.shape.partsUsed.unwrap().element),
};
/** As many parts as `incidentTransitionSchema` takes. */

/**
 * The resolution: root cause (the causes for the lift's kind, in the page's language), what
 * was done, and the parts used, one per line.
 */
export function ResolveModal({
  open,
  incident,
  onClose,
  save,
}: {
  open: boolean;
  incident: IncidentView;
  onClose: () => void;
  save: (resolution: ResolutionInput) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [form] = Form.useForm<ResolveValues>();
  return (
    <FormModal<ResolveValues>
      open={open}
      title={t('incident.resolve.title')}
      form={form}
      initialValues={{ partsUsed: [] }}
      texts={{ saved: t('incident.moved', { state: t('incident.state.resolved') }) }}
      requiredMark
      okText={t('incident.action.resolved')}
      save={(values) => {
        const parts = values.partsUsed.map((p) => p.trim()).filter(Boolean);
        return save({
          rootCause: values.rootCause ?? '',
          ...(values.resolutionText?.trim()
            ? { resolutionText: values.resolutionText.trim() }
            : {}),
          ...(parts.length > 0 ? { partsUsed: parts } : {}),
        });
      }}
      onClose={onClose}
      testId="incident-resolve-modal"
    >
      <Form.Item
        name="rootCause"
        label={t('incident.field.rootCause')}
        rules={[rules.rootCause]}
        required
      >
        <Select<string>
          size="large"
          placeholder={t('incident.field.rootCauseHint')}
          options={rootCausesFor(incident.liftKind).map((cause) => ({
            value: cause,
            label: pickText(ROOT_CAUSE_TEXTS[cause], language),
          }))}
          data-testid="incident-root-cause"
        />
      </Form.Item>
      <Form.Item
        name="resolutionText"
        label={t('incident.field.resolutionText')}
        rules={[rules.resolutionText]}
      >
        <Input.TextArea
          autoSize={{ minRows: 3, maxRows: 8 }}
          data-testid="incident-resolution-text"
        />
      </Form.Item>
      <PartsListField
        name="partsUsed"
        prefix="incident"
        rule={rules.part}
        texts={{
          label: t('incident.field.partsUsed'),
          part: (n) => t('incident.field.part', { n }),
          remove: t('incident.field.removePart'),
          add: t('incident.field.addPart'),
        }}
      />
    </FormModal>
  );
}
