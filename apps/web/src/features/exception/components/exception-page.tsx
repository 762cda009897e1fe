import { useParams } from 'react-router';
import { ExceptionResult, type ExceptionStatus } from '../../../components/exception-result.tsx';

/** `/exception/403`, `/exception/404`, `/exception/500`. */
export default function ExceptionPage() {
  const { status } = useParams();
  const known: ExceptionStatus = status === '403' || status === '500' ? status : '404';
  return (
    <div className="exception-page">
      <ExceptionResult status={known} />
    </div>
  );
}
