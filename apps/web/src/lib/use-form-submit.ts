import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyServerIssues, showError } from './form-errors.ts';

/** What a dialog says after saving, or when saving failed for a reason the answer does not name. */
export interface SubmitTexts {
  saved?: string;
  failed?: string;
}

/**
 * Validate, save, say "Saved" (or `texts.saved`) and close; a validation answer lands on its
 * fields, any other failure in a message. For the create / edit dialogs.
 */
export function useFormSubmit<V>(
  form: FormInstance<V>,
  save: (values: V) => Promise<unknown>,
  onSaved?: () => void,
  texts: SubmitTexts = {},
): () => Promise<void> {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save(values);
      void message.success(texts.saved ?? t('common.saved'));
      onSaved?.();
    } catch (error) {
      if (!applyServerIssues(form, error)) showError(message, error, texts.failed);
    }
  };
}
