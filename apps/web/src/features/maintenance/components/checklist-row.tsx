import { Form, Input, Radio } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChecklistItemView } from '@liftlink/protocol';
import { limitsText, parseMeasured, verdictOf, type Answer } from '../model/checklist.ts';
import { itemLabel } from './labels.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';

/**
 * One checklist item of a visit: two big Pass / Fail buttons, or the measured value with its
 * unit and limits. A value outside the limits shows as failed while it is typed; a failed
 * item offers a note.
 */
export function ChecklistRow({
  item,
  index,
  answer,
}: {
  item: ChecklistItemView;
  index: number;
  answer: Answer | undefined;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const verdict = verdictOf(item, answer);
  const label = itemLabel(item, language);
  const limits = limitsText(item);
  return (
    <li
      className={`visit-item visit-item-${verdict}`}
      data-testid={`visit-item-${item.id}`}
      data-verdict={verdict}
    >
      <div className="visit-item-head">
        <span className="visit-item-label" id={`visit-item-label-${item.id}`}>
          {index + 1}. {label}
        </span>
        {verdict === 'open' ? null : (
          <span className={`visit-verdict visit-verdict-${verdict}`} data-testid="visit-verdict">
            {verdict === 'pass' ? <CheckCircleFilled /> : <CloseCircleFilled />}{' '}
            {item.type === 'measured'
              ? t(verdict === 'pass' ? 'maintenance.verdict.within' : 'maintenance.verdict.outside')
              : t(verdict === 'pass' ? 'maintenance.verdict.pass' : 'maintenance.verdict.fail')}
          </span>
        )}
      </div>
      {item.type === 'passFail' ? (
        <Form.Item
          name={['answers', item.id, 'passed']}
          rules={[{ required: true, message: t('maintenance.visit.answerRequired') }]}
          className="visit-item-field"
        >
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            size="large"
            className="visit-passfail"
            aria-labelledby={`visit-item-label-${item.id}`}
            options={[
              { value: true, label: t('maintenance.verdict.pass') },
              { value: false, label: t('maintenance.verdict.fail') },
            ]}
          />
        </Form.Item>
      ) : (
        <Form.Item
          name={['answers', item.id, 'value']}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                if (parseMeasured(value) === null)
                  throw new Error(t('maintenance.visit.numberRequired'));
              },
            },
          ]}
          className="visit-item-field"
          extra={
            limits ? (
              <span data-testid="visit-limits">
                {t('maintenance.checklist.limits', { limits })}
              </span>
            ) : null
          }
        >
          <Input
            size="large"
            inputMode="decimal"
            autoComplete="off"
            suffix={item.unit ?? undefined}
            aria-labelledby={`visit-item-label-${item.id}`}
            data-testid={`visit-value-${item.id}`}
            className="visit-value"
          />
        </Form.Item>
      )}
      {verdict === 'fail' || answer?.note ? (
        <Form.Item name={['answers', item.id, 'note']} className="visit-item-note">
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 4 }}
            maxLength={1000}
            placeholder={t('maintenance.visit.notePlaceholder')}
            aria-label={t('maintenance.visit.note', { item: label })}
            data-testid={`visit-note-${item.id}`}
          />
        </Form.Item>
      ) : null}
    </li>
  );
}
