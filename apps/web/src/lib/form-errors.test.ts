import { describe, expect, it } from 'vitest';
import type { FormInstance } from 'antd';
import { ApiError } from './http.ts';
import { applyServerIssues } from './form-errors.ts';

/** A form with these fields that records what it was told to show. */
function formWith(fields: Record<string, unknown>) {
  const shown: { name: string; errors: string[] }[] = [];
  const form = {
    getFieldsValue: () => fields,
    setFields: (list: { name: string; errors: string[] }[]) => shown.push(...list),
  } as unknown as FormInstance;
  return { form, shown };
}

const refusal = (issues: { path: string; message: string }[]) =>
  new ApiError(400, 'validation.failed', 'invalid', { issues });

describe('server issues on form fields', () => {
  it('puts an issue on the field its path names, nested under the request or not', () => {
    const { form, shown } = formWith({ iccid: '', carrier: '' });
    const applied = applyServerIssues(
      form,
      refusal([
        { path: 'iotInfo.iccid', message: 'validation.iccid' },
        { path: 'carrier', message: 'validation.required' },
      ]),
    );
    expect(applied).toBe(true);
    expect(shown.map((f) => f.name)).toEqual(['iccid', 'carrier']);
    expect(shown.every((f) => f.errors.length === 1 && f.errors[0]!.length > 0)).toBe(true);
  });

  it('leaves issues of fields the form does not have to the general message', () => {
    const { form, shown } = formWith({ iccid: '' });
    expect(applyServerIssues(form, refusal([{ path: 'liftId', message: 'validation.invalid' }]))).toBe(false);
    expect(shown).toEqual([]);
  });
});
