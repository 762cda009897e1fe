import { Button, Form, Input, InputNumber, Segmented } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CHECKLIST_ITEMS_MAX,
  checklistItemSchema,
  type ChecklistItem,
  type ChecklistItemType,
  type ChecklistLabel,
  type MaintenanceTemplate,
} from '@liftlink/protocol';
import { FormModal } from '../../../components/form-modal.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { maintenanceApi, useTemplateMutation } from '../api/maintenance-api.ts';
import { itemLabel } from './labels.ts';

/** An item as the editor holds it: the words as shown, and the item's own words to keep when unchanged. */
interface EditedItem {
  id: string;
  label: string;
  shownLabel?: string;
  labelText?: unknown;
  type: ChecklistItemType;
  unit?: string | null;
  min?: number | null;
  max?: number | null;
}

interface TemplateValues {
  items: EditedItem[];
}

const itemShape = checklistItemSchema.shape;
const rules = {
  label: zodRule(itemShape.labelText),
  unit: zodRule(itemShape.unit),
};

/** A new item's id: unique within the checklist, in the characters the schema allows. */
function newId(items: readonly EditedItem[]): string {
  const taken = new Set(items.map((i) => i.id));
  for (let n = items.length + 1; ; n += 1) {
    const id = `item-${n}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * The items a template is saved with (maintenanceTemplateSetSchema): an item whose words were
 * not touched keeps its words in every language; edited words are the organization's own.
 */
export function templateItems(items: readonly EditedItem[]): ChecklistItem[] {
  return items.map((item) => {
    const label = item.label.trim();
    const kept =
      item.labelText !== undefined && item.shownLabel === item.label
        ? (item.labelText as ChecklistLabel)
        : label;
    const measured = item.type === 'measured';
    return {
      id: item.id,
      labelText: kept,
      type: item.type,
      unit: measured && item.unit?.trim() ? item.unit.trim() : null,
      min: measured ? (item.min ?? null) : null,
      max: measured ? (item.max ?? null) : null,
    };
  });
}

/** Edits the organization's checklist for one lift kind: add, remove and change items. */
export function TemplateModal({
  template,
  orgId,
  onClose,
}: {
  template: MaintenanceTemplate | null;
  /** The organization whose checklist this is, when not the user's own. */
  orgId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [form] = Form.useForm<TemplateValues>();
  const save = useTemplateMutation((values: TemplateValues) =>
    maintenanceApi.setTemplate({
      ...(orgId ? { orgId } : {}),
      kind: template!.kind,
      items: templateItems(values.items),
    }),
  );
  const initialItems: EditedItem[] = (template?.items ?? []).map((item) => {
    const shown = itemLabel(item, language);
    return {
      id: item.id,
      label: shown,
      shownLabel: shown,
      labelText: item.labelText,
      type: item.type,
      unit: item.unit,
      min: item.min,
      max: item.max,
    };
  });
  return (
    <FormModal<TemplateValues>
      open={template !== null}
      title={t('maintenance.template.editTitle', {
        kind: template ? tx(`device.kind.${template.kind}`) : '',
      })}
      form={form}
      width={720}
      initialValues={{ items: initialItems }}
      // The whole items, their ids and own words too (the form shows only some of their fields).
      save={() => save.mutateAsync({ items: form.getFieldValue('items') as EditedItem[] })}
      onClose={onClose}
      testId="maintenance-template-modal"
    >
      <Form.List
        name="items"
        rules={[
          {
            validator: async (_rule, items: EditedItem[] | undefined) => {
              if (!items || items.length === 0) throw new Error(t('maintenance.template.needOne'));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <TemplateItemFields
                key={field.key}
                name={field.name}
                index={index}
                onRemove={() => remove(field.name)}
              />
            ))}
            <Form.ErrorList errors={errors} />
            <Button
              type="dashed"
              size="large"
              block
              icon={<PlusOutlined />}
              disabled={fields.length >= CHECKLIST_ITEMS_MAX}
              onClick={() =>
                add({
                  id: newId((form.getFieldValue('items') as EditedItem[] | undefined) ?? []),
                  label: '',
                  type: 'passFail',
                  unit: null,
                  min: null,
                  max: null,
                } satisfies EditedItem)
              }
              data-testid="template-add-item"
            >
              {t('maintenance.template.addItem')}
            </Button>
          </>
        )}
      </Form.List>
    </FormModal>
  );
}

function TemplateItemFields({
  name,
  index,
  onRemove,
}: {
  name: number;
  index: number;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const type = Form.useWatch(['items', name, 'type']) as ChecklistItemType | undefined;
  return (
    <div className="template-item-edit" data-testid={`template-item-${index}`}>
      <div className="template-item-row">
        <Form.Item
          name={[name, 'label']}
          label={t('maintenance.template.itemLabel', { n: index + 1 })}
          rules={[rules.label]}
          className="template-item-label"
        >
          <Input size="large" maxLength={200} data-testid={`template-label-${index}`} />
        </Form.Item>
        <Form.Item name={[name, 'type']} label={t('maintenance.template.itemType')}>
          <Segmented<ChecklistItemType>
            size="large"
            options={[
              { value: 'passFail', label: t('maintenance.template.passFail') },
              { value: 'measured', label: t('maintenance.template.measured') },
            ]}
            data-testid={`template-type-${index}`}
          />
        </Form.Item>
      </div>
      {type === 'measured' ? (
        <div className="template-item-row">
          <Form.Item
            name={[name, 'unit']}
            label={t('maintenance.template.unit')}
            rules={[rules.unit]}
          >
            <Input size="large" maxLength={20} data-testid={`template-unit-${index}`} />
          </Form.Item>
          <Form.Item name={[name, 'min']} label={t('maintenance.template.min')}>
            <InputNumber
              size="large"
              style={{ width: '100%' }}
              data-testid={`template-min-${index}`}
            />
          </Form.Item>
          <Form.Item
            name={[name, 'max']}
            label={t('maintenance.template.max')}
            dependencies={[['items', name, 'min']]}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_rule, value: number | null | undefined) => {
                  const min = getFieldValue(['items', name, 'min']) as number | null | undefined;
                  if (value != null && min != null && value < min)
                    throw new Error(t('maintenance.template.maxBelowMin'));
                },
              }),
            ]}
          >
            <InputNumber
              size="large"
              style={{ width: '100%' }}
              data-testid={`template-max-${index}`}
            />
          </Form.Item>
        </div>
      ) : null}
      <Form.Item>
        <Button
          danger
          icon={<DeleteOutlined />}
          onClick={onRemove}
          aria-label={t('maintenance.template.removeItem', { n: index + 1 })}
          data-testid={`template-remove-${index}`}
        >
          {t('maintenance.template.remove')}
        </Button>
      </Form.Item>
    </div>
  );
}
