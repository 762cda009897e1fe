import { App, Button, Form, Input } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { incidentNoteInputSchema, type IncidentNote } from '@liftlink/protocol';
import { applyServerIssues, showError } from '../../../lib/form-errors.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { incidentsApi, useIncidentMutation } from '../api/incidents-api.ts';

const TIME = 'YYYY-MM-DD HH:mm';

/** The notes people left, newest last, and (for those who may edit) a box to add one. */
export function IncidentNotes({
  incidentId,
  notes,
  canAdd,
}: {
  incidentId: number;
  notes: IncidentNote[];
  canAdd: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ text: string }>();
  const add = useIncidentMutation(incidentsApi.addNote);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await add.mutateAsync({ id: incidentId, text: values.text.trim() });
      form.resetFields();
    } catch (error) {
      if (!applyServerIssues(form, error)) showError(message, error);
    }
  };

  return (
    <div className="incident-notes">
      {notes.length === 0 ? (
        <div className="lift-muted">{t('incident.notes.empty')}</div>
      ) : (
        <ul className="incident-note-list" data-testid="incident-notes">
          {notes.map((note) => (
            <li key={note.id} className="incident-note">
              <div className="incident-note-head">
                <strong>{note.authorName}</strong>
                <span className="lift-muted">{dayjs(note.at).format(TIME)}</span>
              </div>
              <div className="incident-note-text">{note.text}</div>
            </li>
          ))}
        </ul>
      )}
      {canAdd ? (
        <Form
          form={form}
          layout="vertical"
          className="incident-note-form"
          onFinish={() => void submit()}
        >
          <Form.Item name="text" rules={[zodRule(incidentNoteInputSchema.shape.text)]}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 6 }}
              placeholder={t('incident.notes.placeholder')}
              aria-label={t('incident.notes.placeholder')}
              data-testid="incident-note-text"
            />
          </Form.Item>
          <Button
            size="large"
            htmlType="submit"
            icon={<SendOutlined />}
            loading={add.isPending}
            data-testid="incident-note-add"
          >
            {t('incident.notes.add')}
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
