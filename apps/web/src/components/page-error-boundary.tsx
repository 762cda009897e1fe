import { Component, type ReactNode } from 'react';
import WarningOutlined from '@ant-design/icons-svg/es/asn/WarningOutlined';
import { Trans } from 'react-i18next';
import { ChunkLoadError } from '../lib/lazy.ts';
import { LiteButton } from './lite/lite-button.tsx';
import { LiteIcon } from './lite/lite-icon.tsx';

interface State {
  error: Error | null;
}

/**
 * Catches a page that failed to load or crashed, so the rest of the shell keeps working.
 * Plain markup on purpose: it is part of the first download and must work when chunks do not.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error instanceof ChunkLoadError;
    return (
      <div className="page-error" role="alert" data-testid="page-error">
        <LiteIcon icon={WarningOutlined} className="page-error-icon" />
        <div className="page-error-title">
          <Trans i18nKey={chunk ? 'exception.chunkTitle' : 'exception.crashTitle'} />
        </div>
        <div className="page-error-text">
          <Trans i18nKey={chunk ? 'exception.chunkText' : 'exception.crashText'} />
        </div>
        <LiteButton primary size="middle" onClick={() => window.location.reload()}>
          <Trans i18nKey="exception.reloadPage" />
        </LiteButton>
      </div>
    );
  }
}
