/**
 * Registers the service worker (public/sw.js) that shows the offline page when a page
 * cannot load for want of a network, and makes the app installable. Only in the built app:
 * the development server reloads files itself. Browsers without service workers, or pages
 * not served over HTTPS or from localhost, simply go without.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // After the page has loaded: its own requests come first on a slow network.
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
