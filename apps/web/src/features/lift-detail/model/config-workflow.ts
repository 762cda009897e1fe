import {
  configField,
  configFieldReads,
  type CommandResult,
  type ConfigField,
  type ConfigIssue,
  type LiftConfig,
} from '@liftlink/protocol';
import {
  configDiff,
  configIssues,
  configIssueText,
  issueField,
  type ConfigChange,
} from '../../../lib/config-model.ts';
import { ApiError } from '../../../lib/http.ts';

/**
 * The configuration panel's workflow without the screen (spec section 4): editing
 * disabled -> enabled -> saved, the review of the difference before sending, the
 * reconfiguration a configured lift asks to confirm, and refusal issues put on fields.
 */
export type ConfigFlow = 'disabled' | 'enabled' | 'saved';

export const FLOW_COLORS = {
  disabled: 'default',
  enabled: 'processing',
  saved: 'success',
} as const;

/** What the review dialog shows and sends. */
export interface ConfigReview {
  config: LiftConfig;
  changes: ConfigChange[];
}

/** Why an imported file was not taken: a text key for the whole file, or field issues. */
export interface ImportProblem {
  error: string | null;
  issues: ConfigIssue[];
}

export interface ConfigWorkflow {
  flow: ConfigFlow;
  /** The configuration version the edit started from (sent with the write). */
  editVersion: number;
  review: ConfigReview | null;
  importProblem: ImportProblem | null;
}

export type ConfigAction =
  | { type: 'edit'; version: number }
  | { type: 'cancel' }
  | { type: 'review'; review: ConfigReview }
  | { type: 'closeReview' }
  | { type: 'saved' }
  | { type: 'imported'; version: number; review: ConfigReview }
  | { type: 'importFailed'; problem: ImportProblem }
  | { type: 'clearImportProblem' };

export function initialWorkflow(version: number): ConfigWorkflow {
  return { flow: 'disabled', editVersion: version, review: null, importProblem: null };
}

export function configWorkflow(state: ConfigWorkflow, action: ConfigAction): ConfigWorkflow {
  switch (action.type) {
    case 'edit':
      return { ...state, flow: 'enabled', editVersion: action.version, importProblem: null };
    case 'cancel':
      return { ...state, flow: 'disabled' };
    case 'review':
      return { ...state, review: action.review };
    case 'closeReview':
      return { ...state, review: null };
    case 'saved':
      return { ...state, flow: 'saved', review: null };
    case 'imported':
      return {
        flow: 'enabled',
        editVersion: action.version,
        review: action.review,
        importProblem: null,
      };
    case 'importFailed':
      return { ...state, importProblem: action.problem };
    case 'clearImportProblem':
      return { ...state, importProblem: null };
  }
}

/** Someone else changed the lift's configuration since this edit started. */
export function changedMeanwhile(state: ConfigWorkflow, liftVersion: number): boolean {
  return state.flow === 'enabled' && liftVersion !== state.editVersion;
}

/** The review of an edit: the issues against the shared rules, else the difference. */
export function prepareReview(
  current: LiftConfig | null,
  next: LiftConfig,
  floors: number,
): { issues: ConfigIssue[] } | { review: ConfigReview } {
  const issues = configIssues(current, next, floors);
  if (issues.length > 0) return { issues };
  return { review: { config: next, changes: configDiff(current, next) } };
}

/** Issues (the form's, the server's or the lift's) as field errors, and the first field to show. */
export function issuesOnFields(issues: readonly ConfigIssue[]): {
  fields: { name: string; errors: string[] }[];
  first: ConfigField | undefined;
} {
  const known = issues.filter((i) => configField(issueField(i.path)));
  return {
    fields: known.map((i) => ({ name: issueField(i.path), errors: [configIssueText(i)] })),
    first: known[0] ? configField(issueField(known[0].path)) : undefined,
  };
}

/** How a failed write ends. */
export type SendFailure =
  /** A configured lift: ask to confirm reconfiguration, then send again. */
  | { kind: 'reconfigure' }
  | {
      kind: 'failed';
      /** The server's and the lift's issues, to put on the fields. */
      issues: ConfigIssue[];
      /** What to say: the lift's refusal reason, "could not save", else the error itself. */
      notice: { refused: string } | 'saveFailed' | 'error';
    };

export function sendFailure(error: unknown): SendFailure {
  if (!(error instanceof ApiError)) return { kind: 'failed', issues: [], notice: 'error' };
  if (error.code === 'config.reconfigure') return { kind: 'reconfigure' };
  const result = error.result as Partial<CommandResult> | null;
  // A validation answer and a lift's refusal (a command result) both carry `result.issues`.
  const issues = error.issues;
  if (error.code === 'lift.refused' && result?.reason)
    return { kind: 'failed', issues, notice: { refused: result.reason } };
  if (error.code === 'validation.failed') return { kind: 'failed', issues, notice: 'saveFailed' };
  return { kind: 'failed', issues, notice: 'error' };
}

/** The fields a field's rules read (protocol's relations): it is re-checked when one changes. */
export function dependenciesOf(field: ConfigField): string[] {
  return configFieldReads(field.key);
}
