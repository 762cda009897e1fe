import { InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConfigField } from '@liftlink/protocol';
import { fieldLabel, unitLabel } from '../lib/config-model.ts';
import { tx } from '../lib/i18n/i18n.ts';
import './lift.css';

/** Form.Item hands its control `id`, `value` and `onChange` (or `checked` for a switch): they go on to the input. */
interface ControlProps {
  id?: string;
  value?: unknown;
  checked?: boolean;
  onChange?: (value: unknown) => void;
}

/**
 * The input of one configuration field, driven by the protocol's field descriptor: options
 * of an enum by their translated names, numbers with their unit and range, booleans as a
 * switch (the Form.Item then passes `checked`: give it `valuePropName="checked"`).
 * Used by the lift page's configuration editor and the group configuration.
 */
export function ConfigFieldInput({
  field,
  disabled = false,
  testId = `config-input-${field.key}`,
  ...control
}: { field: ConfigField; disabled?: boolean; testId?: string } & ControlProps) {
  const { t } = useTranslation();
  if (field.type === 'boolean')
    return (
      <Switch
        id={control.id}
        checked={control.checked}
        onChange={control.onChange}
        disabled={disabled}
        data-testid={testId}
        aria-label={fieldLabel(field.key)}
      />
    );
  if (field.type === 'enum')
    return (
      <Select
        id={control.id}
        onChange={control.onChange}
        value={control.value as string | undefined}
        disabled={disabled}
        options={(field.options ?? []).map((option) => ({
          value: option,
          label: tx(`config.option.${field.baseKey}.${option}`),
        }))}
        data-testid={testId}
        aria-label={fieldLabel(field.key)}
      />
    );
  return (
    <InputNumber<number>
      id={control.id}
      onChange={control.onChange}
      value={control.value as number | null | undefined}
      disabled={disabled}
      step={field.step ?? 1}
      style={{ width: '100%' }}
      suffix={field.unit ? <span className="lift-muted">{unitLabel(field)}</span> : undefined}
      placeholder={
        field.min !== undefined && field.max !== undefined
          ? t('config.range', { min: field.min, max: field.max })
          : undefined
      }
      data-testid={testId}
      aria-label={fieldLabel(field.key)}
    />
  );
}
