// First: configures zod before any schema parses (no code generation under the CSP).
import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import { preloadStart } from './app/routing/preload.ts';
import { fetchCsrfCookie, hasCsrfCookie } from './lib/http.ts';
import { bootLanguage } from './lib/i18n/language.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import './components/lite/lite.css';
import './app/styles.css';

const HI_KEY = 'liftlink.hi';

/**
 * Spec section 7: without the CSRF cookie, GET /auth/Hi and reload the page. A second
 * reload within a few seconds means the cookie cannot be set; then carry on without it.
 */
async function ensureCsrfCookie(): Promise<boolean> {
  if (hasCsrfCookie()) return true;
  const last = Number(sessionStorage.getItem(HI_KEY) ?? 0);
  if (Date.now() - last < 10_000) return true;
  sessionStorage.setItem(HI_KEY, String(Date.now()));
  try {
    await fetchCsrfCookie();
  } catch {
    return true;
  }
  window.location.reload();
  return false;
}

async function boot(): Promise<void> {
  if (!(await ensureCsrfCookie())) return;
  const preload = preloadStart(window.location.pathname);
  await bootLanguage();
  preload.afterLanguage();
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        {/* Location changes commit at once (no transition): the tab bar opens a tab for
            every route visited, however quickly the next click follows. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  );
}

void boot();
registerServiceWorker();
