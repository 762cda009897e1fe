import { Alert, Button, Col, Form, Row, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CONFIG_FIELDS,
  CONFIG_GROUPS,
  configField,
  configFieldSchema,
  groupConfigChangesSchema,
  type ConfigValue,
} from '@liftlink/protocol';
import { ConfigFieldInput } from '../../../components/config-field-input.tsx';
import { fieldLabel } from '../../../lib/config-model.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { changesOf, initialValue } from '../model/group-config.ts';
import { StepFooter } from './step-footer.tsx';

export type ChangeValues = { fields?: string[] } & Record<string, ConfigValue | null | undefined>;

/** The fields offered, grouped as on the lift page, each with its translated name. */
function fieldOptions() {
  return CONFIG_GROUPS.map((group) => ({
    label: tx(`config.group.${group}`),
    options: CONFIG_FIELDS.filter((f) => f.group === group).map((f) => ({
      value: f.key,
      label: fieldLabel(f.key),
    })),
  })).filter((g) => g.options.length > 0);
}

/**
 * Step 2: the fields to change, each with its input from the one configuration schema (its
 * unit, range and options) and validated by that field's schema.
 */
export function ChangesStep({
  form,
  loading,
  error,
  onBack,
  onReview,
}: {
  form: FormInstance<ChangeValues>;
  loading: boolean;
  error: unknown;
  onBack: () => void;
  onReview: () => void;
}) {
  const { t } = useTranslation();
  const fields = Form.useWatch('fields', form) ?? [];
  const values = Form.useWatch([], form) ?? {};
  const ready = groupConfigChangesSchema.safeParse(changesOf(fields, values)).success;
  const onFields = (next: string[]) => {
    for (const key of next)
      if (form.getFieldValue(key) === undefined) form.setFieldValue(key, initialValue(key));
  };
  return (
    <Form form={form} layout="vertical" requiredMark={false} data-testid="group-changes">
      <Form.Item name="fields" label={t('groupConfig.changes.fields')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('groupConfig.changes.placeholder')}
          options={fieldOptions()}
          optionFilterProp="label"
          onChange={onFields}
          data-testid="group-fields"
          aria-label={t('groupConfig.changes.fields')}
        />
      </Form.Item>
      <Row gutter={16}>
        {fields.map((key) => {
          const field = configField(key);
          if (!field) return null;
          return (
            <Col xs={24} md={12} xl={8} key={key}>
              <Form.Item
                name={key}
                label={fieldLabel(key)}
                valuePropName={field.type === 'boolean' ? 'checked' : 'value'}
                rules={[zodRule(configFieldSchema(field))]}
              >
                <ConfigFieldInput field={field} testId={`group-input-${key}`} />
              </Form.Item>
            </Col>
          );
        })}
      </Row>
      {fields.length === 0 ? (
        <Alert
          type="info"
          showIcon
          title={t('groupConfig.noChanges')}
          className="group-config-alert"
        />
      ) : null}
      <StepFooter error={error} errorTestId="group-preview-error" onBack={onBack}>
        <Button
          type="primary"
          disabled={!ready}
          loading={loading}
          onClick={() => void form.validateFields().then(onReview, () => undefined)}
          data-testid="group-review"
        >
          {t('groupConfig.review')}
        </Button>
      </StepFooter>
    </Form>
  );
}
