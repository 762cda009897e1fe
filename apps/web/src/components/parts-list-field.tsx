import { Button, Form, Input } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Rule } from 'antd/es/form';

/** The most parts one list takes (the protocol allows 50). */
const MAX_PARTS = 50;

interface PartsListFieldProps {
  /** The form field holding the list of strings. */
  name: string;
  /** Prefix of the class names (`<p>-parts`, `<p>-part`, …) and test ids (`<p>-part-<n>`, `<p>-add-part`). */
  prefix: string;
  rule: Rule;
  texts: { label: string; part: (n: number) => string; remove: string; add: string };
  maxLength?: number;
}

/** The parts used (a resolution, a visit): one big input per part, a remove button each, an add button. */
export function PartsListField({ name, prefix, rule, texts, maxLength }: PartsListFieldProps) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <div className={`${prefix}-parts`}>
          <div className={`${prefix}-parts-label`}>{texts.label}</div>
          {fields.map((field, index) => (
            <div key={field.key} className={`${prefix}-part`}>
              <Form.Item name={field.name} rules={[rule]} className={`${prefix}-part-input`}>
                <Input
                  size="large"
                  maxLength={maxLength}
                  aria-label={texts.part(index + 1)}
                  data-testid={`${prefix}-part-${index}`}
                />
              </Form.Item>
              <Button
                size="large"
                icon={<DeleteOutlined />}
                aria-label={texts.remove}
                onClick={() => remove(field.name)}
              />
            </div>
          ))}
          <Button
            size="large"
            block
            type="dashed"
            icon={<PlusOutlined />}
            disabled={fields.length >= MAX_PARTS}
            onClick={() => add('')}
            data-testid={`${prefix}-add-part`}
          >
            {texts.add}
          </Button>
        </div>
      )}
    </Form.List>
  );
}
