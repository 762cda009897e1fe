import type { ReactNode } from 'react';

/** antd's Checkbox look: a native checkbox (keyboard and screen readers as usual) drawn over. */
export function LiteCheckbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="lite-checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span className="lite-checkbox-box" aria-hidden="true" />
      <span>{children}</span>
    </label>
  );
}
