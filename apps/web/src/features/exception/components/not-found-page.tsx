import { ExceptionResult } from '../../../components/exception-result.tsx';

/** `/404` (spec section 2). */
export default function NotFoundPage() {
  return (
    <div className="exception-page">
      <ExceptionResult status="404" />
    </div>
  );
}
