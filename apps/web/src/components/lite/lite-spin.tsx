/** antd's large Spin (four dots turning) in plain CSS, for loading states at start-up. */
export function LiteSpin() {
  return (
    <span className="lite-spin" aria-hidden="true">
      <i />
      <i />
      <i />
      <i />
    </span>
  );
}
