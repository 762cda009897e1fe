import { useEffect, useReducer, useState } from 'react';
import { App, Form } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  configField,
  defaultConfig,
  refusalText,
  type ConfigIssue,
  type ConfigPart,
  type LiftConfig,
  type LiftInfo,
} from '@liftlink/protocol';
import {
  configFile,
  configFileName,
  configIssues,
  configIssueText,
  configDiff,
  formToConfig,
  parseConfigFile,
  type ConfigFormValues,
} from '../../../lib/config-model.ts';
import { saveTextFile } from '../../../lib/download.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { liftApi, liftDetailKeys } from '../api/lift-api.ts';
import {
  changedMeanwhile,
  configWorkflow,
  initialWorkflow,
  issuesOnFields,
  prepareReview,
  sendFailure,
} from '../model/config-workflow.ts';

function toFormValues(config: LiftConfig | null): ConfigFormValues {
  return { ...(config ?? {}) };
}

/**
 * The configuration panel's workflow (model/config-workflow.ts) bound to its form, the
 * server and the user's messages: edit, review and send (confirming reconfiguration), read
 * from the lift, export and import.
 */
export function useConfigWorkflow(info: LiftInfo) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const { lift } = info;
  const liftId = lift.id;
  const floors = lift.floors;
  const role = lift.access.configRole;
  const current = info.config;
  const [form] = Form.useForm<ConfigFormValues>();
  const [state, dispatch] = useReducer(configWorkflow, lift.configVersion, initialWorkflow);
  const [part, setPart] = useState<ConfigPart>('run');
  const [busy, setBusy] = useState<'read' | 'send' | null>(null);
  const editing = state.flow === 'enabled';

  // While not editing, the form shows what the lift holds.
  useEffect(() => {
    if (!editing) form.setFieldsValue(toFormValues(current));
  }, [current, editing, form]);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: liftDetailKeys.info(liftId) }),
      client.invalidateQueries({ queryKey: liftDetailKeys.configLogs(liftId) }),
    ]);

  const showField = (key: string | undefined) => {
    const field = key ? configField(key) : undefined;
    if (!field) return;
    setPart(field.part);
    setTimeout(() => form.scrollToField(field.key, { block: 'center' }), 50);
  };

  const fillForm = (values: LiftConfig | null) => {
    form.resetFields();
    form.setFieldsValue(toFormValues(values ?? current ?? defaultConfig(lift.kind, floors)));
  };

  const startEditing = () => {
    fillForm(null);
    dispatch({ type: 'edit', version: lift.configVersion });
  };

  const cancelEditing = () => {
    form.resetFields();
    form.setFieldsValue(toFormValues(current));
    dispatch({ type: 'cancel' });
  };

  /** The form rule of a field: the shared rules over the whole edited configuration. */
  const rule = (key: string) => ({
    validator: async () => {
      if (!editing) return;
      const next = formToConfig(form.getFieldsValue(true), floors);
      const issue = configIssues(current, next, floors).find((i) => i.path === key);
      if (issue) throw new Error(configIssueText(issue));
    },
  });

  const showIssues = (issues: ConfigIssue[]) => {
    const { fields, first } = issuesOnFields(issues);
    form.setFields(fields);
    showField(first?.key);
  };

  const openReview = async () => {
    const failed = await form.validateFields().then(
      () => null,
      (error: { errorFields?: { name: (string | number)[] }[] }) => error.errorFields ?? [],
    );
    if (failed && failed.length > 0) {
      showField(String(failed[0]!.name[0]));
      return;
    }
    const prepared = prepareReview(
      current,
      formToConfig(form.getFieldsValue(true), floors),
      floors,
    );
    if ('issues' in prepared) showIssues(prepared.issues);
    else dispatch({ type: 'review', review: prepared.review });
  };

  const send = async (config: LiftConfig, confirmReconfigure: boolean) => {
    setBusy('send');
    try {
      await liftApi.writeConfig({
        liftId,
        config,
        version: state.editVersion,
        ...(confirmReconfigure ? { confirmReconfigure: true } : {}),
      });
      dispatch({ type: 'saved' });
      void message.success(t('config.saved'));
      await refresh();
    } catch (error) {
      const failure = sendFailure(error);
      if (failure.kind === 'reconfigure') {
        void modal.confirm({
          title: t('config.reconfigure.title'),
          content: t('config.reconfigure.text'),
          okText: t('config.reconfigure.ok'),
          cancelText: t('common.cancel'),
          onOk: () => send(config, true),
        });
        return;
      }
      if (failure.issues.length > 0) {
        dispatch({ type: 'closeReview' });
        showIssues(failure.issues);
      }
      if (typeof failure.notice === 'object')
        void message.error(
          t('config.refused', { reason: refusalText(failure.notice.refused, language) }),
        );
      else if (failure.notice === 'saveFailed') void message.error(t('config.saveFailed'));
      else {
        const text = errorMessage(error);
        if (text) void message.error(text);
      }
    } finally {
      setBusy(null);
    }
  };

  const readFromLift = async () => {
    setBusy('read');
    try {
      const result = await liftApi.readConfig(liftId);
      client.setQueryData<LiftInfo>(liftDetailKeys.info(liftId), (old) =>
        old
          ? { ...old, config: result.config, lift: { ...old.lift, configVersion: result.version } }
          : old,
      );
      form.setFieldsValue(toFormValues(result.config));
      void message.success(t('config.readDone', { version: result.version }));
      await refresh();
    } catch (error) {
      const text = errorMessage(error);
      if (text) void message.error(text);
    } finally {
      setBusy(null);
    }
  };

  const exportFile = () => {
    const config = editing ? formToConfig(form.getFieldsValue(true), floors) : current;
    if (!config) return;
    saveTextFile(
      JSON.stringify(configFile(lift, config), null, 2),
      configFileName(lift.deviceNo),
      'application/json;charset=utf-8',
    );
  };

  const importFile = async (file: File) => {
    const result = parseConfigFile(await file.text(), lift, current, role);
    if (!result.ok) {
      dispatch({ type: 'importFailed', problem: { error: result.error, issues: result.issues } });
      return;
    }
    fillForm(result.config);
    dispatch({
      type: 'imported',
      version: lift.configVersion,
      review: { config: result.config, changes: configDiff(current, result.config) },
    });
  };

  return {
    form,
    state,
    editing,
    changedMeanwhile: changedMeanwhile(state, lift.configVersion),
    part,
    setPart,
    busy,
    rule,
    startEditing,
    cancelEditing,
    openReview,
    send,
    closeReview: () => dispatch({ type: 'closeReview' }),
    clearImportProblem: () => dispatch({ type: 'clearImportProblem' }),
    readFromLift,
    exportFile,
    importFile,
  };
}
