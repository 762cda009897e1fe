import type { RefusalView } from '../model/refusal.ts';

/** A refusal's reason and, under it, what to do next. */
export function RefusalNote({
  view,
  testId = 'command-reason',
}: {
  view: RefusalView;
  testId?: string;
}) {
  return (
    <div className="refusal-note">
      <div className="command-progress-reason" data-testid={testId}>
        {view.text}
      </div>
      {view.advice ? (
        <div className="refusal-advice" data-testid={`${testId}-advice`}>
          {view.advice}
        </div>
      ) : null}
    </div>
  );
}
