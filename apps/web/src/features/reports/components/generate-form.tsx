import { useEffect, useMemo } from 'react';
import { App, Button, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGES,
  reportGenerateSchema,
  type Language,
  type ReportGenerateRequest,
} from '@liftlink/protocol';
import { applyServerIssues, showError } from '../../../lib/form-errors.ts';
import { LANGUAGE_LABELS, useLanguage } from '../../../lib/i18n/language.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useGenerateReport, useReportTargets } from '../api/reports-api.ts';
import { recentMonths } from './months.ts';

const { shape } = reportGenerateSchema;
/** How far back a report can be asked for: two years, as the figures' longest span. */
const MONTHS = 24;

interface Values {
  orgId?: string;
  site?: string;
  month?: string;
  language: Language;
}

/** "Generate now": an organization (or one of its sites), a month and a language. */
export function GenerateForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const targets = useReportTargets();
  const generate = useGenerateReport();
  const [form] = Form.useForm<Values>();
  const orgId = Form.useWatch('orgId', form);
  const orgs = useMemo(() => targets.data?.list ?? [], [targets.data]);
  const sites = orgs.find((o) => o.orgId === orgId)?.sites ?? [];
  const months = recentMonths(MONTHS);

  // One organization in reach: it is the choice.
  useEffect(() => {
    if (orgs.length === 1 && !form.getFieldValue('orgId'))
      form.setFieldValue('orgId', orgs[0]!.orgId);
  }, [orgs, form]);

  const submit = (values: Values) => {
    const request: ReportGenerateRequest = {
      orgId: values.orgId!,
      month: values.month!,
      language: values.language,
      ...(values.site ? { site: values.site } : {}),
    };
    generate.mutate(request, {
      onSuccess: () => void message.success(t('reports.generated')),
      onError: (error) => {
        if (!applyServerIssues(form, error)) showError(message, error);
      },
    });
  };

  return (
    <Form
      form={form}
      layout="inline"
      className="reports-form"
      initialValues={{ month: months[1], language }}
      onFinish={submit}
      data-testid="report-generate"
    >
      <Form.Item name="orgId" label={t('reports.org')} rules={[zodRule(shape.orgId)]}>
        <Select
          className="reports-org"
          loading={targets.isPending}
          showSearch={{ optionFilterProp: 'label' }}
          options={orgs.map((o) => ({ value: o.orgId, label: o.orgName }))}
          onChange={() => form.setFieldValue('site', undefined)}
          aria-label={t('reports.org')}
        />
      </Form.Item>
      <Form.Item name="site" label={t('reports.site')} rules={[zodRule(shape.site)]}>
        <Select
          className="reports-site"
          allowClear
          placeholder={t('reports.wholeOrg')}
          options={sites.map((s) => ({ value: s, label: s }))}
          aria-label={t('reports.site')}
        />
      </Form.Item>
      <Form.Item name="month" label={t('reports.month')} rules={[zodRule(shape.month)]}>
        <Select
          className="reports-month"
          options={months.map((m) => ({ value: m, label: m }))}
          aria-label={t('reports.month')}
        />
      </Form.Item>
      <Form.Item name="language" label={t('reports.language')}>
        <Select
          className="reports-language"
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABELS[l] }))}
          aria-label={t('reports.language')}
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={generate.isPending}>
          {t('reports.generate')}
        </Button>
      </Form.Item>
    </Form>
  );
}
