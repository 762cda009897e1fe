import { useState, type ReactNode } from 'react';
import { Form, Modal, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSubmit, type SubmitTexts } from '../lib/use-form-submit.ts';
import { useResetOnOpen } from '../lib/use-reset-on-open.ts';

interface FormModalProps<V> {
  open: boolean;
  title: ReactNode;
  form: FormInstance<V>;
  /** Filled in each time the dialog opens (after a reset). */
  initialValues?: Partial<V>;
  save: (values: V) => Promise<unknown>;
  onClose: () => void;
  width?: number;
  testId?: string;
  /** Marks the required fields (off by default: most dialogs' fields are all required). */
  requiredMark?: boolean;
  texts?: SubmitTexts;
  /** The confirm button's words when "Save" does not say what happens ("Resolve"). */
  okText?: ReactNode;
  children: ReactNode;
}

/** A create / edit dialog: fields reset on open, validation, "Saved", server field errors. */
export function FormModal<V>({
  open,
  title,
  form,
  initialValues,
  save,
  onClose,
  width,
  testId,
  requiredMark = false,
  texts,
  okText,
  children,
}: FormModalProps<V>) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  // Compared by content: a parent's fresh object of the same values must not reset the typing.
  const initialJson = JSON.stringify(initialValues ?? null);
  const submit = useFormSubmit(
    form,
    async (values: V) => {
      setPending(true);
      try {
        await save(values);
      } finally {
        setPending(false);
      }
    },
    onClose,
    texts,
  );

  useResetOnOpen(open ? initialJson : null, () => {
    form.resetFields();
    const initial = JSON.parse(initialJson) as Parameters<typeof form.setFieldsValue>[0] | null;
    if (initial) form.setFieldsValue(initial);
  });

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText={okText ?? t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={pending}
      onOk={() => void submit()}
      onCancel={onClose}
      forceRender
      data-testid={testId}
    >
      <Form form={form} layout="vertical" requiredMark={requiredMark}>
        {children}
      </Form>
    </Modal>
  );
}
