import type { Rule, RuleObject } from 'antd/es/form';
import type { z } from 'zod';
import { translateIssue } from './i18n/i18n.ts';

/**
 * An antd Form rule from a shared zod schema: the schema's first issue (an i18n key such
 * as `validation.required`) becomes the translated field error. The rule is re-evaluated
 * on every validation, so the text follows a language switch.
 */
export function zodRule(schema: z.ZodType): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const given = value === null ? undefined : value;
      // An emptied optional field is "not given", not an invalid value.
      if (given === '' && (await schema.safeParseAsync(undefined)).success) return;
      const result = await schema.safeParseAsync(given);
      if (result.success) return;
      const first = result.error.issues[0];
      // A schema without its own "required" text still reads as one when nothing was typed.
      const key =
        first?.code === 'invalid_type' && given === undefined
          ? 'validation.required'
          : (first?.message ?? 'validation.invalid');
      throw new Error(translateIssue(key));
    },
  };
}

/** A rule that reads other fields, e.g. "confirmation equals the new password". */
export function sameAsRule(
  otherField: string,
  messageKey: string,
): (form: { getFieldValue: (name: string) => unknown }) => RuleObject {
  return (form) => ({
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      if (value !== form.getFieldValue(otherField)) throw new Error(translateIssue(messageKey));
    },
  });
}
